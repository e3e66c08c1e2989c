import { CATALOGUE_ENTITIES } from '@shared/schemas/data-jobs';
import { DataScreen } from '../components/DataScreen';
import { TemplatesPanel } from '../components/ExportParts';
import { JobAnalytics, JobCards } from '../components/JobFigures';
import { FailedJobs, JobHistory } from '../components/JobHistory';

const SCOPE = { type: 'import' as const, entities: CATALOGUE_ENTITIES };

/** Test Data Import (/test-data-import): the test menu (tests, profiles, packages) in and its history. */
export default function TestDataImportPage() {
  return (
    <DataScreen actions={['import']} importEntities={CATALOGUE_ENTITIES}>
      {() => (
        <>
          <JobCards scope={SCOPE} />
          <JobHistory scope={SCOPE} title="Import History" entityOptions={CATALOGUE_ENTITIES} itemLabel="imports" />
          <div className="mt-5 grid gap-4 lg:grid-cols-2">
            <FailedJobs scope={SCOPE} title="Failed Imports" />
            <TemplatesPanel
              title="Templates"
              items={[
                { label: 'Tests', entity: 'tests' },
                { label: 'Test Profiles', entity: 'profiles' },
                { label: 'Test Packages', entity: 'packages' },
              ]}
            />
          </div>
          <JobAnalytics scope={SCOPE} title="Import Analytics" />
        </>
      )}
    </DataScreen>
  );
}

import { DATA_ENTITIES } from '@shared/schemas/data-jobs';
import { DataScreen, UploadCards } from '../components/DataScreen';
import { JobAnalytics, JobCards } from '../components/JobFigures';
import { FailedJobs, JobHistory } from '../components/JobHistory';

const SCOPE = { type: 'import' as const };

/** Data Import (/import): upload cards per data type, import history, failed imports, analytics. */
export default function ImportPage() {
  return (
    <DataScreen actions={['import']}>
      {(ctx) => (
        <>
          <JobCards scope={SCOPE} />
          <UploadCards
            ctx={ctx}
            cards={[
              { label: 'Patient Data', entity: 'patients', formats: 'CSV, Excel or JSON' },
              { label: 'Test Results', entity: 'results', formats: 'CSV, Excel or JSON' },
              { label: 'Billing', entity: 'bills', formats: 'CSV, Excel or JSON' },
              { label: 'Inventory', entity: 'inventory', formats: 'CSV, Excel or JSON' },
              { label: 'Equipment', entity: 'equipment', formats: 'CSV, Excel or JSON' },
              { label: 'Calibration Records', entity: 'calibrations', formats: 'CSV, Excel or JSON' },
              { label: 'User Data', entity: 'users', formats: 'CSV, Excel or JSON' },
              { label: 'Custom Import', entity: null, formats: 'Any data type, with column mapping' },
            ]}
          />
          <JobHistory scope={SCOPE} title="Import History" entityOptions={DATA_ENTITIES} itemLabel="imports" />
          <div className="mt-5 grid gap-4 lg:grid-cols-2">
            <FailedJobs scope={SCOPE} title="Failed Imports" />
          </div>
          <JobAnalytics scope={SCOPE} title="Import Analytics" />
        </>
      )}
    </DataScreen>
  );
}

import { DATA_ENTITIES } from '@shared/schemas/data-jobs';
import { DataScreen } from '../components/DataScreen';
import { TemplatesPanel } from '../components/ExportParts';
import { JobAnalytics, JobCards } from '../components/JobFigures';
import { FailedJobs, JobHistory } from '../components/JobHistory';

const SCOPE = {};

/** Data Import/Export (/data-import-export): every operation, failed ones, templates, analytics. */
export default function DataImportExportPage() {
  return (
    <DataScreen actions={['export', 'import']}>
      {() => (
        <>
          <JobCards scope={SCOPE} />
          <JobHistory
            scope={SCOPE}
            title="Operations"
            entityOptions={DATA_ENTITIES}
            typeFilter
            itemLabel="operations"
          />
          <div className="mt-5 grid gap-4 lg:grid-cols-2">
            <FailedJobs scope={SCOPE} title="Failed Operations" />
            <TemplatesPanel
              items={[
                { label: 'Patient', entity: 'patients' },
                { label: 'Test Results', entity: 'results' },
                { label: 'Billing', entity: 'bills' },
                { label: 'Inventory', entity: 'inventory' },
                { label: 'Equipment', entity: 'equipment' },
                { label: 'Calibration', entity: 'calibrations' },
                { label: 'User', entity: 'users' },
                { label: 'Doctors', entity: 'doctors' },
                { label: 'Samples', entity: 'samples' },
              ]}
            />
          </div>
          <JobAnalytics scope={SCOPE} title="Operation Analytics" />
        </>
      )}
    </DataScreen>
  );
}

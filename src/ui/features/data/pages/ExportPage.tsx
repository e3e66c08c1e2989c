import { DATA_ENTITIES } from '@shared/schemas/data-jobs';
import { DataScreen } from '../components/DataScreen';
import { QuickExport } from '../components/ExportParts';
import { JobAnalytics, JobCards } from '../components/JobFigures';
import { JobHistory } from '../components/JobHistory';

const SCOPE = { type: 'export' as const };

/** Data Export (/export): quick exports that download real files, export history, analytics. */
export default function ExportPage() {
  return (
    <DataScreen actions={['export']}>
      {(ctx) => (
        <>
          <JobCards scope={SCOPE} />
          <JobHistory scope={SCOPE} title="Export History" entityOptions={DATA_ENTITIES} itemLabel="exports" />
          <div className="mt-5">
            <QuickExport
              entities={ctx.entities}
              onCustom={ctx.openExport}
              options={[
                { label: 'Patient Data', entity: 'patients', formats: ['csv', 'xlsx'] },
                { label: 'Test Results', entity: 'results', formats: ['csv', 'xlsx'] },
                { label: 'Billing Data', entity: 'bills', formats: ['csv', 'pdf'] },
                { label: 'Inventory', entity: 'inventory', formats: ['csv', 'xlsx'] },
                { label: 'User Data', entity: 'users', formats: ['csv', 'json'] },
              ]}
            />
          </div>
          <JobAnalytics scope={SCOPE} title="Export Analytics" />
        </>
      )}
    </DataScreen>
  );
}

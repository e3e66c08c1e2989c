import { useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Database, DownloadCloud, FileUp, Users, FlaskConical, Receipt, Boxes, Settings2, Wrench } from 'lucide-react';
import { Button, Card, CardBody, CardHeader, ErrorPanel, LoadingState, PageHeader } from '@/components';
import type { TransferEntityInfo } from '@shared/schemas/data-jobs';
import { useScreen } from '@/lib/screens';
import { useTransferEntities, type Scope } from '../api';
import { ImportDialog } from './ImportDialog';
import { ExportDialog } from './ExportParts';

/** What the entities query gives a data screen, once loaded. */
export interface DataContext {
  entities: readonly TransferEntityInfo[];
  importable: readonly TransferEntityInfo[];
  openImport: (entity?: string) => void;
  openExport: () => void;
}

/**
 * The frame of the four data screens: title, the primary actions (New Import, Create Export), the
 * dialogs, and the entities the user may move (the server decides; the screens only offer them).
 */
export function DataScreen({
  importEntities,
  actions,
  children,
}: {
  /** The entities this screen imports (Test Data Import: the test menu); all when not given. */
  importEntities?: readonly string[];
  actions: ('import' | 'export' | 'template')[];
  templateEntity?: string;
  children: (ctx: DataContext) => ReactNode;
}) {
  const screen = useScreen();
  const entities = useTransferEntities();
  // ?entity=calibrations (the Calibration screen's Import) opens New Import for that type.
  const [params] = useSearchParams();
  const asked = actions.includes('import') ? (params.get('entity') ?? undefined) : undefined;
  const [importOpen, setImportOpen] = useState(asked !== undefined);
  const [importEntity, setImportEntity] = useState<string | undefined>(asked);
  const [exportOpen, setExportOpen] = useState(false);
  // Each New Import starts afresh (its dialog is made anew with the type it was opened for).
  const [opened, setOpened] = useState(0);
  const all = entities.data ?? [];
  const importable = all.filter((e) => e.can_import && (!importEntities || importEntities.includes(e.name)));
  const ctx: DataContext = {
    entities: all,
    importable,
    openImport: (entity) => {
      setImportEntity(entity);
      setOpened((n) => n + 1);
      setImportOpen(true);
    },
    openExport: () => setExportOpen(true),
  };
  const buttons = (
    <div className="flex flex-wrap gap-2">
      {actions.includes('export') && (
        <Button variant={actions.includes('import') ? 'outline' : 'primary'} onClick={ctx.openExport}>
          <DownloadCloud />
          Create Export
        </Button>
      )}
      {actions.includes('import') && (
        <Button onClick={() => ctx.openImport()} disabled={!importable.length}>
          <FileUp />
          {importEntities ? 'Import Data' : 'New Import'}
        </Button>
      )}
    </div>
  );
  return (
    <>
      <PageHeader title={screen.title} subtitle={screen.subtitle} actions={entities.data ? buttons : undefined} />
      {entities.isPending ? (
        <LoadingState text="Loading..." />
      ) : entities.isError ? (
        <ErrorPanel title="Error Loading Data Types" query={entities} />
      ) : (
        <>
          {children(ctx)}
          <ImportDialog
            key={opened}
            open={importOpen}
            onOpenChange={setImportOpen}
            entities={importable}
            initialEntity={importable.some((e) => e.name === importEntity) ? importEntity : undefined}
          />
          <ExportDialog open={exportOpen} onOpenChange={setExportOpen} entities={all} />
        </>
      )}
    </>
  );
}

const ICONS: Record<string, ReactNode> = {
  patients: <Users />,
  results: <FlaskConical />,
  bills: <Receipt />,
  users: <Users />,
  tests: <FlaskConical />,
  profiles: <FlaskConical />,
  packages: <FlaskConical />,
  payers: <Receipt />,
  payer_prices: <Receipt />,
  inventory: <Boxes />,
  suppliers: <Boxes />,
  equipment: <Wrench />,
  calibrations: <Wrench />,
  maintenance: <Wrench />,
  custom: <Settings2 />,
};

export interface UploadCard {
  label: string;
  entity: string | null;
  formats: string;
  unavailable?: string;
}

/** The upload cards per data type (Data Import): each opens New Import for its type. */
export function UploadCards({ cards, ctx }: { cards: UploadCard[]; ctx: DataContext }) {
  return (
    <Card className="mb-5 min-w-0">
      <CardHeader title="Upload Data" description="Choose what the file holds; every row is checked before import." />
      <CardBody>
        <ul className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3">
          {cards.map((c) => {
            const may = c.entity === null ? ctx.importable.length > 0 : ctx.importable.some((e) => e.name === c.entity);
            const why = c.unavailable ?? (may ? undefined : 'needs the permission that creates these records');
            return (
              <li key={c.label} className="flex items-start gap-3 rounded border border-slate-200 p-3">
                <span className="mt-0.5 text-slate-500 [&_svg]:size-5">{ICONS[c.entity ?? 'custom'] ?? <Database />}</span>
                <div className="min-w-0 flex-1">
                  <p className="text-sm font-medium text-slate-900">{c.label}</p>
                  <p className="text-[12px] text-slate-600">{why ?? c.formats}</p>
                  <Button
                    size="sm"
                    variant="outline"
                    className="mt-2"
                    disabled={!!why}
                    onClick={() => ctx.openImport(c.entity ?? undefined)}
                  >
                    Upload
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      </CardBody>
    </Card>
  );
}

export type { Scope };

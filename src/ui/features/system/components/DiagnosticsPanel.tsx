import type { ReactNode } from 'react';
import { Server } from 'lucide-react';
import { Badge, Card, CardBody, CardHeader, ErrorPanel, LoadingState, RefreshButton } from '@/components';
import { useCurrentUser } from '@/lib/session';
import { can } from '@/lib/roles';
import { formatBytes, formatUptime, useDiagnostics } from '../api';
import type { DatabaseDiagnostics } from '@shared/schemas/system';

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-3 border-b border-slate-100 py-1.5 last:border-0">
      <dt className="shrink-0 text-slate-600">{label}</dt>
      <dd className="min-w-0 text-right break-all text-slate-900">{children}</dd>
    </div>
  );
}

function DatabaseFacts({ database: d }: { database: DatabaseDiagnostics }) {
  if (d.type === 'PostgreSQL') {
    return (
      <>
        <Item label="Database">
          <span className="font-mono">PostgreSQL {d.server}</span>
        </Item>
        <Item label="Size">{formatBytes(d.size_bytes)}</Item>
        <Item label="PostgreSQL">{d.server_version}</Item>
        <Item label="Connections open">{d.pool_size}</Item>
        <Item label="Other servers' changes">
          <Badge status={d.change_listener ? 'ok' : 'error'}>{d.change_listener ? 'Listening' : 'Not listening'}</Badge>
        </Item>
      </>
    );
  }
  return (
    <>
      <Item label="Database file">
        <span className="font-mono">{d.file}</span>
      </Item>
      <Item label="Size">{formatBytes(d.size_bytes)}</Item>
      <Item label="SQLite">{d.sqlite_version}</Item>
      <Item label="Journal mode">{d.journal_mode}</Item>
      <Item label="Synchronous">{d.synchronous}</Item>
      <Item label="Foreign keys">{d.foreign_keys ? 'On' : 'Off'}</Item>
    </>
  );
}

/**
 * Server and database facts for the server's operator (manage_tenants): they describe the whole
 * server, every lab on it. Nobody else sees the panel.
 */
export function DiagnosticsPanel() {
  const me = useCurrentUser();
  const allowed = can(me, 'manage_tenants');
  const diag = useDiagnostics(allowed);
  if (!allowed) return null;
  return (
    <Card>
      <CardHeader
        title="Diagnostics"
        icon={<Server />}
        description="The running server and its database file."
        actions={<RefreshButton query={diag} variant="ghost" size="sm" />}
      />
      <CardBody>
        {diag.isPending ? (
          <LoadingState text="Loading diagnostics..." />
        ) : diag.isError ? (
          <ErrorPanel title="Diagnostics Unavailable" query={diag} />
        ) : (
          <dl className="grid gap-x-8 text-[13px] md:grid-cols-2">
            <div>
              <Item label="Server version">{diag.data.server.version ?? '—'}</Item>
              <Item label="Node.js">{diag.data.server.node}</Item>
              <Item label="Platform">{diag.data.server.platform}</Item>
              <Item label="Uptime">{formatUptime(diag.data.server.uptime_seconds)}</Item>
              <Item label="Memory">{diag.data.server.memory_mb} MB</Item>
              <Item label="Demo mode">{diag.data.server.demo ? 'On' : 'Off'}</Item>
            </div>
            <div>
              <DatabaseFacts database={diag.data.database} />
              <Item label="Quick check">
                <Badge status={diag.data.database.quick_check === 'ok' ? 'ok' : 'error'}>
                  {diag.data.database.quick_check}
                </Badge>
              </Item>
              <Item label="Schema version">{diag.data.database.schema_version}</Item>
            </div>
          </dl>
        )}
      </CardBody>
    </Card>
  );
}

import { Check } from 'lucide-react';
import { PERMISSIONS, ROLE_LABELS, ROLE_PERMISSIONS, ROLES } from '@shared/roles';
import { Card, CardHeader } from '@/components';
import { humanize } from '@/lib/format';

/**
 * The role -> permission matrix exactly as the server enforces it (src/shared/roles.ts), not a
 * description of it. Rows are permissions, columns roles; scrolls sideways on a phone.
 */
export function RolePermissionsPanel() {
  return (
    <Card>
      <CardHeader
        title="Role Permissions"
        description="What each role may do. The server checks these on every request; roles are changed in User Management."
      />
      <div className="max-h-[28rem] overflow-auto">
        <table className="w-full border-collapse text-[13px]">
          <caption className="sr-only">Permissions by role</caption>
          <thead className="sticky top-0 z-10 bg-slate-50">
            <tr className="border-b border-slate-200">
              <th
                scope="col"
                className="sticky left-0 z-20 bg-slate-50 px-3 py-2 text-left text-xs font-semibold text-slate-600 uppercase"
              >
                Permission
              </th>
              {ROLES.map((r) => (
                <th
                  key={r}
                  scope="col"
                  className="px-1.5 py-2 text-center text-xs font-semibold whitespace-nowrap text-slate-700"
                >
                  {ROLE_LABELS[r]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {PERMISSIONS.map((p) => (
              <tr key={p} className="border-b border-slate-100 hover:bg-slate-50">
                <th
                  scope="row"
                  className="sticky left-0 bg-white px-3 py-1.5 text-left font-normal whitespace-nowrap text-slate-800"
                >
                  {humanize(p).replace(/\bqc\b/, 'QC')}
                  <span className="sr-only"> ({p})</span>
                </th>
                {ROLES.map((r) => {
                  const has = ROLE_PERMISSIONS[r].includes(p);
                  return (
                    <td key={r} className="px-1.5 py-1.5 text-center">
                      {has ? (
                        <Check className="mx-auto size-4 text-green-700" aria-label={`${ROLE_LABELS[r]} has ${p}`} />
                      ) : (
                        <span className="text-slate-300" aria-label={`${ROLE_LABELS[r]} does not have ${p}`}>
                          ·
                        </span>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}

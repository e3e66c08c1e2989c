import type { StructuredOut } from '@shared/schemas/results';
import {
  GROWTH_WORDS,
  INTERPRETATION_WORDS,
  formatCount,
  paramsBySection,
  referenceText,
  templateById,
} from '@shared/templates';
import { FlagBadge } from './cells';

/** A structured result read-only, as the validator reviews it: every parameter with its reference and flag. */
export function StructuredView({ s }: { s: StructuredOut }) {
  const t = templateById(s.template);
  if (s.culture) {
    const c = s.culture;
    return (
      <div className="grid gap-2">
        <p>
          <span className="text-slate-600">Specimen:</span> {c.specimen} ·{' '}
          <span className="font-medium">
            {c.growth === 'no_growth' ? `No growth after ${c.incubation_hours ?? '—'} h` : GROWTH_WORDS[c.growth]}
          </span>
        </p>
        {c.organisms.map((o, i) => (
          <div key={i} className="overflow-x-auto">
            <p className="font-medium text-slate-900">
              {o.name}
              {o.colony_count != null && ` · ${formatCount(o.colony_count)} CFU/mL`}
            </p>
            <table className="mt-1 w-full text-left text-[13px]">
              <thead className="text-xs text-slate-600">
                <tr>
                  <th className="py-1 pr-2 font-medium">Antibiotic</th>
                  <th className="py-1 pr-2 font-medium">S/I/R</th>
                  <th className="py-1 pr-2 text-right font-medium">MIC (mg/L)</th>
                  <th className="py-1 text-right font-medium">Zone (mm)</th>
                </tr>
              </thead>
              <tbody>
                {o.antibiotics.map((a) => (
                  <tr key={a.name} className="border-t border-slate-100">
                    <td className="py-1 pr-2">{a.name}</td>
                    <td className={a.interpretation === 'R' ? 'py-1 pr-2 font-semibold text-red-800' : 'py-1 pr-2'}>
                      {INTERPRETATION_WORDS[a.interpretation]}
                    </td>
                    <td className="py-1 pr-2 text-right">{a.mic ?? '—'}</td>
                    <td className="py-1 text-right">{a.zone ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
        {c.comment && <p className="text-slate-700">Comment: {c.comment}</p>}
      </div>
    );
  }
  if (!t || t.kind !== 'panel' || !s.values) return null;
  return (
    <div className="grid gap-2">
      {paramsBySection(t).map((section) => {
        const rows = section.params.filter((p) => s.values![p.key] !== undefined);
        if (!rows.length) return null;
        return (
          <div key={section.key}>
            <p className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{section.title}</p>
            <dl className="grid grid-cols-[9rem_minmax(0,1fr)] gap-x-3 gap-y-0.5 sm:grid-cols-[12rem_minmax(0,1fr)]">
              {rows.map((p) => {
                const flag = s.flags?.[p.key] ?? null;
                const off = flag !== null && flag !== 'normal';
                const unit = p.kind === 'text' ? '' : (p.unit ?? '');
                return (
                  <div key={p.key} className="contents">
                    <dt className="text-slate-600">{p.label}</dt>
                    <dd className={off ? 'font-semibold text-slate-900' : 'text-slate-900'}>
                      {s.values![p.key]} {unit} {off && <FlagBadge flag={flag} />}
                      <span className="ml-2 text-xs font-normal text-slate-500">{referenceText(p)}</span>
                    </dd>
                  </div>
                );
              })}
            </dl>
          </div>
        );
      })}
    </div>
  );
}

/**
 * The stale marks of migrations 49 and 51 mark only what a write can have changed.
 *
 * An update trigger marked both the OLD and the NEW minute of its row, and a result's insert marked
 * its verification minute while it had none: on the common write (a result verified, a line's
 * total changed, a sample received) the OLD minute is the NEW one, and each mark is a statement on
 * every write of a visit. Here the NEW minute is marked as before; the OLD one only by a trigger
 * whose WHEN holds when the OLD minute can differ (the row moved to another bill, sample, lab or
 * time); a sample's results only when its collection time (which their turnaround is measured
 * from) or its lab changed; a result's verification minute only when it has one. Which minutes end
 * up marked is the same set as before for every write.
 *
 * The mark statement is migration 49's, repeated here: a shipped migration stays frozen, so this
 * one does not import it.
 */

const mark = (org: string, at: string, from = '') =>
  `INSERT INTO rollup_stale (organization_id, minute) SELECT ${org}, substr(${at}, 1, 16) ${from || 'WHERE'} ${
    from ? 'AND' : ''
  } ${at} IS NOT NULL ON CONFLICT DO NOTHING`;
const billOf = (R: string) => mark('b.organization_id', 'b.created_at', `FROM bills b WHERE b.id = ${R}.bill_id`);
const sampleDay = (S: string) => `COALESCE(${S}.collection_date, ${S}.created_at)`;
const sampleOf = (R: string) => mark('s.organization_id', sampleDay('s'), `FROM samples s WHERE s.id = ${R}.sample_id`);
const resultsOf = (S: string) =>
  mark('r.organization_id', 'r.verified_at', `FROM test_results r WHERE r.sample_id = ${S}.id`);

/** `a` differs from `b`, NULLs compared as values (SQLite's IS NOT; PostgreSQL's IS DISTINCT FROM). */
type Differs = (a: string, b: string) => string;

interface Trigger {
  table: string;
  name: string;
  when: string;
  /** Fires only when this holds (none: always). */
  only?: (differs: Differs) => string;
  body: string[];
}

const orgMoved = (d: Differs) => d('OLD.organization_id', 'NEW.organization_id');

/** The triggers whose body changes (they keep their names) and the new OLD-side ones. */
const TRIGGERS: { replaced: Trigger[]; added: Trigger[] } = {
  replaced: [
    {
      table: 'bills',
      name: 'au',
      when: 'AFTER UPDATE OF created_at, cancelled_at, organization_id',
      body: [mark('NEW.organization_id', 'NEW.created_at')],
    },
    {
      table: 'bills',
      name: 'au_money',
      when: 'AFTER UPDATE OF discount_amount_paise, total_before_discount_paise, final_amount_paise, created_by, doctor_id, patient_id',
      body: [mark('NEW.organization_id', 'NEW.created_at')],
    },
    {
      table: 'bill_items',
      name: 'au',
      when: 'AFTER UPDATE OF bill_id, item_type, test_id, profile_id, package_id, name, qty, total_paise',
      body: [billOf('NEW')],
    },
    { table: 'bill_items', name: 'au_discount', when: 'AFTER UPDATE OF discount_amount_paise', body: [billOf('NEW')] },
    {
      table: 'samples',
      name: 'au',
      when: 'AFTER UPDATE OF collection_date, created_at, status, organization_id',
      body: [mark('NEW.organization_id', sampleDay('NEW'))],
    },
    { table: 'sample_tests', name: 'au', when: 'AFTER UPDATE OF sample_id, test_id', body: [sampleOf('NEW')] },
    { table: 'test_results', name: 'ai', when: 'AFTER INSERT', body: [sampleOf('NEW')] },
    {
      table: 'test_results',
      name: 'au',
      when: 'AFTER UPDATE OF result_value, status, verified_at, sample_id, test_id, organization_id',
      body: [sampleOf('NEW'), mark('NEW.organization_id', 'NEW.verified_at')],
    },
  ],
  added: [
    {
      table: 'bills',
      name: 'au_old',
      when: 'AFTER UPDATE OF created_at, cancelled_at, organization_id',
      only: (d) => `${d('OLD.created_at', 'NEW.created_at')} OR ${orgMoved(d)}`,
      body: [mark('OLD.organization_id', 'OLD.created_at')],
    },
    {
      table: 'bill_items',
      name: 'au_old',
      when: 'AFTER UPDATE OF bill_id',
      only: (d) => d('OLD.bill_id', 'NEW.bill_id'),
      body: [billOf('OLD')],
    },
    {
      table: 'samples',
      name: 'au_old',
      when: 'AFTER UPDATE OF collection_date, created_at, organization_id',
      only: (d) => `${d(sampleDay('OLD'), sampleDay('NEW'))} OR ${orgMoved(d)}`,
      body: [mark('OLD.organization_id', sampleDay('OLD'))],
    },
    {
      table: 'samples',
      name: 'au_results',
      when: 'AFTER UPDATE OF collection_date, organization_id',
      only: (d) => `${d('OLD.collection_date', 'NEW.collection_date')} OR ${orgMoved(d)}`,
      body: [resultsOf('NEW')],
    },
    {
      table: 'sample_tests',
      name: 'au_old',
      when: 'AFTER UPDATE OF sample_id',
      only: (d) => d('OLD.sample_id', 'NEW.sample_id'),
      body: [sampleOf('OLD')],
    },
    {
      table: 'test_results',
      name: 'ai_verified',
      when: 'AFTER INSERT',
      only: () => 'NEW.verified_at IS NOT NULL',
      body: [mark('NEW.organization_id', 'NEW.verified_at')],
    },
    {
      table: 'test_results',
      name: 'au_old_sample',
      when: 'AFTER UPDATE OF sample_id, organization_id',
      only: (d) => `${d('OLD.sample_id', 'NEW.sample_id')} OR ${orgMoved(d)}`,
      body: [sampleOf('OLD')],
    },
    {
      table: 'test_results',
      name: 'au_old_verified',
      when: 'AFTER UPDATE OF verified_at, organization_id',
      only: (d) => `OLD.verified_at IS NOT NULL AND (${d('OLD.verified_at', 'NEW.verified_at')} OR ${orgMoved(d)})`,
      body: [mark('OLD.organization_id', 'OLD.verified_at')],
    },
  ],
};

const triggerName = (t: Trigger) => `rollup_stale_${t.table}_${t.name}`;

const sqliteDiffers: Differs = (a, b) => `${a} IS NOT ${b}`;
const sqliteTrigger = (t: Trigger) =>
  `CREATE TRIGGER ${triggerName(t)} ${t.when} ON ${t.table} FOR EACH ROW${
    t.only ? ` WHEN ${t.only(sqliteDiffers)}` : ''
  } BEGIN\n${t.body.map((b) => `  ${b};`).join('\n')}\nEND;`;

export const sql = [
  ...TRIGGERS.replaced.flatMap((t) => [`DROP TRIGGER ${triggerName(t)};`, sqliteTrigger(t)]),
  ...TRIGGERS.added.map(sqliteTrigger),
].join('\n');

const postgresDiffers: Differs = (a, b) => `${a} IS DISTINCT FROM ${b}`;
const postgresFunction = (
  t: Trigger,
) => `CREATE OR REPLACE FUNCTION lims_${triggerName(t)}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
${t.body.map((b) => `  ${b};`).join('\n')}
  RETURN NULL;
END $$;`;

export const postgres = [
  ...TRIGGERS.replaced.map(postgresFunction),
  ...TRIGGERS.added.flatMap((t) => [
    postgresFunction(t),
    `CREATE TRIGGER ${triggerName(t)} ${t.when} ON ${t.table} FOR EACH ROW${
      t.only ? ` WHEN (${t.only(postgresDiffers)})` : ''
    } EXECUTE FUNCTION lims_${triggerName(t)}();`,
  ]),
].join('\n');

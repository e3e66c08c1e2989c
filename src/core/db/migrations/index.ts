import { sql as foundation } from './001_foundation.js';
import { sql as catalogueBilling } from './002_catalogue_billing.js';
import { sql as laboratory } from './003_laboratory.js';
import { sql as labDay } from './004_lab_day.js';
import { sql as walkIn } from './005_walk_in.js';
import { sql as qcRuns } from './006_qc_runs.js';
import { sql as searchPrefixes } from './007_search_prefixes.js';
import { sql as backupRuns } from './008_backup_runs.js';
import { sql as notifications } from './009_notifications.js';
import { sql as doctors } from './010_doctors.js';
import { sql as twoFactor } from './011_two_factor.js';
import { sql as messaging } from './012_messaging.js';
import { sql as tenants, sqliteSteps as tenantsSqlite, usersEmailPerLabPostgres } from './013_tenants.js';
import { sql as userAdmin } from './014_user_admin.js';
import { sql as dataJobs } from './015_data_jobs.js';
import { sql as dataMappings } from './016_data_mappings.js';
import { sql as inventory } from './017_inventory.js';
import { sql as equipment, postgres as equipmentPostgres } from './018_equipment.js';
import {
  sql as paymentsLedger,
  sqliteSteps as paymentsLedgerSqlite,
  postgres as paymentsLedgerPostgres,
} from './019_payments_ledger.js';
import { sql as payersInvoices } from './020_payers_invoices.js';
import {
  sql as advanceUse,
  sqliteSteps as advanceUseSqlite,
  postgres as advanceUsePostgres,
} from './021_advance_use.js';
import { sql as reportRuns } from './022_report_runs.js';
import { sql as labReports } from './023_lab_reports.js';
import { sql as printSnapshots } from './041_print_snapshots.js';
import { sql as invoiceLabSnapshot } from './044_invoice_lab_snapshot.js';
import { sql as targetTat } from './024_target_tat.js';
import { sql as reportSummaries, postgres as reportSummariesPostgres } from './025_report_summaries.js';
import { sql as interfaces, postgres as interfacesPostgres } from './026_interfaces.js';
import { sql as interopOut } from './027_interop_out.js';
import { sql as reportTurnaround, postgres as reportTurnaroundPostgres } from './028_report_turnaround.js';
import { sql as interfaceOrders, postgres as interfaceOrdersPostgres } from './029_interface_orders.js';
import { sql as reportSpeed, postgres as reportSpeedPostgres } from './030_report_speed.js';
import { sql as liveOpenTests, postgres as liveOpenTestsPostgres } from './031_live_open_tests.js';
import { sql as reportYear, postgres as reportYearPostgres } from './032_report_year.js';
import {
  sql as patientCountStatement,
  postgres as patientCountStatementPostgres,
} from './034_patient_count_statement.js';
import { sql as tatTestMonthly, postgres as tatTestMonthlyPostgres } from './035_tat_test_monthly.js';
import { sql as reportYearIndexes, postgres as reportYearIndexesPostgres } from './033_report_year_indexes.js';
import {
  sql as reportPostgresIndexes,
  postgres as reportPostgresIndexesPostgres,
} from './036_report_postgres_indexes.js';
import { sql as liveOpenCollected, postgres as liveOpenCollectedPostgres } from './037_live_open_collected.js';
import { sql as linkLimits } from './039_link_limits.js';
import { sql as summariesAtCommit, postgres as summariesAtCommitPostgres } from './038_summaries_at_commit.js';
import { sql as recollect } from './040_recollect.js';
import { sql as onePatientRecord, sqliteSteps as onePatientRecordSqlite } from './042_one_patient_record.js';
import {
  sql as structuredResults,
  sqliteSteps as structuredResultsSqlite,
  postgres as structuredResultsPostgres,
} from './043_structured_results.js';
import { sql as previousVerifier } from './045_previous_verifier.js';
import { foundationAfter, foundationBefore, searchPrefixCounts, walkInPhones } from './postgres.js';
import { toPostgres } from '../dialect.js';
import type Database from 'better-sqlite3';
import { sql as legacyIds } from './046_legacy_ids.js';
import { sql as personTitles } from './047_person_titles.js';
import { sql as instrumentProfiles } from './048_instrument_profiles.js';
import { sql as dayRollups, postgres as dayRollupsPostgres } from './049_day_rollups.js';
import { sql as autoverification } from './050_autoverification.js';
import { sql as moneyRollups, postgres as moneyRollupsPostgres } from './051_money_rollups.js';
import { sql as reportDelivery } from './052_report_delivery.js';
import { sql as homeCollection } from './053_home_collection.js';
import { sql as centres } from './054_centres.js';
import { sql as reportDeliveryChannels } from './055_report_delivery_channels.js';
import { sql as marksWhenChanged, postgres as marksWhenChangedPostgres } from './056_marks_when_changed.js';
import { sql as rollupItemOrder, postgres as rollupItemOrderPostgres } from './058_rollup_item_order.js';
import { sql as outboxAttachments } from './059_outbox_attachments.js';
import {
  sql as staleMarksWithoutRowid,
  sqliteSteps as staleMarksWithoutRowidSqlite,
  postgres as staleMarksWithoutRowidPostgres,
} from './060_stale_marks_without_rowid.js';
import {
  sql as centreLogins,
  postgres as centreLoginsPostgres,
  sqliteSteps as centreLoginsSqlite,
} from './057_centre_logins.js';

export interface Migration {
  version: number;
  name: string;
  /** The SQLite script. */
  sql: string;
  /** The PostgreSQL script, when the translation of the SQLite one (toPostgres) is not enough. */
  postgres?: string;
  /**
   * SQLite: work SQL alone cannot do (a table rebuild, see ../rebuild.ts), run after `sql` in the
   * same transaction. The runner turns foreign-key enforcement off around such a migration and
   * checks the references before it commits.
   */
  sqliteSteps?: (sqlite: Database.Database) => void;
}

/**
 * Forward-only, numbered. Append new migrations; never edit one that has shipped. A new migration
 * is written for SQLite; PostgreSQL runs its translation (toPostgres) unless `postgres` gives the
 * script (usually toPostgres(sql) plus PostgreSQL-only statements). Both engines run every
 * migration in the test suite.
 */
export const migrations: Migration[] = [
  {
    version: 1,
    name: 'foundation',
    sql: foundation,
    postgres: foundationBefore + toPostgres(foundation) + foundationAfter,
  },
  { version: 2, name: 'catalogue_billing', sql: catalogueBilling },
  { version: 3, name: 'laboratory', sql: laboratory },
  { version: 4, name: 'lab_day', sql: labDay },
  {
    version: 5,
    name: 'walk_in',
    sql: walkIn,
    postgres: toPostgres(walkIn, { drop: [/^UPDATE patients SET phone/] }) + walkInPhones,
  },
  { version: 6, name: 'qc_runs', sql: qcRuns },
  { version: 7, name: 'search_prefixes', sql: searchPrefixes, postgres: searchPrefixCounts },
  { version: 8, name: 'backup_runs', sql: backupRuns },
  { version: 9, name: 'notifications', sql: notifications },
  { version: 10, name: 'doctors', sql: doctors },
  { version: 11, name: 'two_factor', sql: twoFactor },
  { version: 12, name: 'messaging', sql: messaging },
  {
    version: 13,
    name: 'tenants',
    sql: tenants,
    sqliteSteps: tenantsSqlite,
    postgres: toPostgres(tenants) + usersEmailPerLabPostgres,
  },
  { version: 14, name: 'user_admin', sql: userAdmin },
  { version: 15, name: 'data_jobs', sql: dataJobs },
  { version: 16, name: 'data_mappings', sql: dataMappings },
  { version: 17, name: 'inventory', sql: inventory },
  { version: 18, name: 'equipment', sql: equipment, postgres: equipmentPostgres },
  {
    version: 19,
    name: 'payments_ledger',
    sql: paymentsLedger,
    sqliteSteps: paymentsLedgerSqlite,
    postgres: paymentsLedgerPostgres,
  },
  { version: 20, name: 'payers_invoices', sql: payersInvoices },
  { version: 21, name: 'advance_use', sql: advanceUse, sqliteSteps: advanceUseSqlite, postgres: advanceUsePostgres },
  { version: 22, name: 'report_runs', sql: reportRuns },
  { version: 23, name: 'lab_reports', sql: labReports },
  { version: 24, name: 'target_tat', sql: targetTat },
  { version: 25, name: 'report_summaries', sql: reportSummaries, postgres: reportSummariesPostgres },
  { version: 26, name: 'interfaces', sql: interfaces, postgres: interfacesPostgres },
  { version: 27, name: 'interop_out', sql: interopOut },
  { version: 28, name: 'report_turnaround', sql: reportTurnaround, postgres: reportTurnaroundPostgres },
  { version: 29, name: 'interface_orders', sql: interfaceOrders, postgres: interfaceOrdersPostgres },
  { version: 30, name: 'report_speed', sql: reportSpeed, postgres: reportSpeedPostgres },
  { version: 31, name: 'live_open_tests', sql: liveOpenTests, postgres: liveOpenTestsPostgres },
  { version: 32, name: 'report_year', sql: reportYear, postgres: reportYearPostgres },
  { version: 33, name: 'report_year_indexes', sql: reportYearIndexes, postgres: reportYearIndexesPostgres },
  {
    version: 34,
    name: 'patient_count_statement',
    sql: patientCountStatement,
    postgres: patientCountStatementPostgres,
  },
  { version: 35, name: 'tat_test_monthly', sql: tatTestMonthly, postgres: tatTestMonthlyPostgres },
  { version: 36, name: 'report_postgres_indexes', sql: reportPostgresIndexes, postgres: reportPostgresIndexesPostgres },
  { version: 37, name: 'live_open_collected', sql: liveOpenCollected, postgres: liveOpenCollectedPostgres },
  { version: 38, name: 'summaries_at_commit', sql: summariesAtCommit, postgres: summariesAtCommitPostgres },
  { version: 39, name: 'link_limits', sql: linkLimits },
  { version: 40, name: 'recollect', sql: recollect },
  { version: 41, name: 'print_snapshots', sql: printSnapshots },
  { version: 42, name: 'one_patient_record', sql: onePatientRecord, sqliteSteps: onePatientRecordSqlite },
  {
    version: 43,
    name: 'structured_results',
    sql: structuredResults,
    sqliteSteps: structuredResultsSqlite,
    postgres: structuredResultsPostgres,
  },
  { version: 44, name: 'invoice_lab_snapshot', sql: invoiceLabSnapshot },
  { version: 45, name: 'previous_verifier', sql: previousVerifier },
  { version: 46, name: 'legacy_ids', sql: legacyIds },
  { version: 47, name: 'person_titles', sql: personTitles },
  { version: 48, name: 'instrument_profiles', sql: instrumentProfiles },
  { version: 49, name: 'day_rollups', sql: dayRollups, postgres: dayRollupsPostgres },
  { version: 50, name: 'autoverification', sql: autoverification },
  { version: 51, name: 'money_rollups', sql: moneyRollups, postgres: moneyRollupsPostgres },
  { version: 52, name: 'report_delivery', sql: reportDelivery },
  { version: 53, name: 'home_collection', sql: homeCollection },
  { version: 54, name: 'centres', sql: centres },
  { version: 55, name: 'report_delivery_channels', sql: reportDeliveryChannels },
  { version: 56, name: 'marks_when_changed', sql: marksWhenChanged, postgres: marksWhenChangedPostgres },
  {
    version: 57,
    name: 'centre_logins',
    sql: centreLogins,
    sqliteSteps: centreLoginsSqlite,
    postgres: centreLoginsPostgres,
  },
  { version: 58, name: 'rollup_item_order', sql: rollupItemOrder, postgres: rollupItemOrderPostgres },
  { version: 59, name: 'outbox_attachments', sql: outboxAttachments },
  {
    version: 60,
    name: 'stale_marks_without_rowid',
    sql: staleMarksWithoutRowid,
    sqliteSteps: staleMarksWithoutRowidSqlite,
    postgres: staleMarksWithoutRowidPostgres,
  },
];

import type { Db } from '../db/connection.js';
import { latestSnapshotRow } from '../printing/repository.js';
import { insertLink, linkOfVersion, replaceOlderLinks } from './links-repository.js';
import { deliveryConfig } from './settings.js';

/**
 * A released report gets its link: one per version of the report (print_snapshots' version: an
 * amended report released again is version 2, 3...). The new version's link replaces the older
 * ones, whose page then says so. Only while the lab sends reports by link.
 */
export async function linkReleasedReport(
  trx: Db,
  organizationId: number,
  sampleId: number,
  now: string,
): Promise<{ id: number; version: number; created: boolean } | null> {
  const config = await deliveryConfig(trx, organizationId);
  if (config.enabled !== 1) return null;
  const version = (await latestSnapshotRow(trx, organizationId, 'report', sampleId))?.version ?? 1;
  const existing = await linkOfVersion(trx, sampleId, Number(version));
  if (existing) return { id: existing.id, version: existing.version, created: false };
  const id = await insertLink(trx, {
    organization_id: organizationId,
    sample_id: sampleId,
    version: Number(version),
    created_at: now,
    revoked_at: null,
    revoked_by: null,
    replaced_by: null,
    otp_hash: null,
    otp_expires_at: null,
    otp_sent_at: null,
  });
  await replaceOlderLinks(trx, sampleId, id, Number(version));
  return { id, version: Number(version), created: true };
}

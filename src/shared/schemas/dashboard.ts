import { z } from 'zod';

/**
 * GET /api/dashboard/stats. A module whose tables do not exist yet answers null: screens show
 * "—" and "not available yet", never a made-up zero.
 */
export const countsSchema = z.object({
  patients: z.number().int(),
  users: z.number().int(),
  doctors: z.number().int(),
  tests: z.number().int().nullable(),
  test_profiles: z.number().int().nullable(),
  test_packages: z.number().int().nullable(),
  samples: z.number().int().nullable(),
  test_results: z.number().int().nullable(),
  bills: z.number().int().nullable(),
});
export type Counts = z.infer<typeof countsSchema>;

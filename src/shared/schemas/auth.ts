import { z } from 'zod';

export const loginSchema = z.object({
  email: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.string({ error: 'Email is required' }).min(1, 'Email is required').max(254),
  ),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const demoCredentialSchema = z.object({ role: z.string(), email: z.string(), password: z.string() });
export type DemoCredential = z.infer<typeof demoCredentialSchema>;

import { z } from 'zod';

const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * The lab a sign-in names when the address it is made at names none (a server holding several
 * labs, reached by IP address): the lab's domain, as its administrator gave it. A pasted address
 * (https://lab2.example.com:3001/login) is read as its host name; empty means not given.
 */
export const signInLabField = z.preprocess(
  (v) => {
    if (typeof v !== 'string') return v;
    const host = v
      .trim()
      .toLowerCase()
      .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
      .replace(/[/?#].*$/, '')
      .replace(/:\d*$/, '')
      .replace(/\.$/, '');
    return host === '' ? undefined : host;
  },
  z
    .string()
    .max(253, "Enter your lab's address, such as lab2.example.com")
    .refine((d) => d.split('.').every((label) => HOST_LABEL.test(label)), {
      message: "Enter your lab's address, such as lab2.example.com",
    })
    .optional(),
);

export const loginSchema = z.object({
  email: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() : v),
    z.string({ error: 'Email is required' }).min(1, 'Email is required').max(254),
  ),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200),
  lab: signInLabField,
});
export type LoginInput = z.infer<typeof loginSchema>;

/** The sign-in page's lab: its name, and whether the page must ask which lab (see GET /api/auth/lab). */
export const signInLabSchema = z.object({ name: z.string().nullable(), ask_lab: z.boolean() });
export type SignInLab = z.infer<typeof signInLabSchema>;

export const demoCredentialSchema = z.object({ role: z.string(), email: z.string(), password: z.string() });
export type DemoCredential = z.infer<typeof demoCredentialSchema>;

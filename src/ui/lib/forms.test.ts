import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { applyServerErrors, fieldErrors, fieldNamed, serverErrors } from './forms';

const refused = (details: { path: string; message: string }[], message = 'Validation failed') =>
  new ApiError(400, message, 'VALIDATION_ERROR', details);

describe('a failed save as the form shows it', () => {
  it('puts a 400 detail under the field it names, the first message of a field only', () => {
    const err = refused([
      { path: 'email', message: 'Enter a valid email' },
      { path: 'email', message: 'Too long' },
      { path: 'phone', message: 'Enter 10 digits' },
    ]);
    expect(serverErrors(err)).toEqual({
      fields: { email: 'Enter a valid email', phone: 'Enter 10 digits' },
      form: undefined,
    });
  });

  it('maps API names to the form’s names and gives what no field takes to the form', () => {
    const err = refused([
      { path: 'first_name', message: 'Required' },
      { path: 'settings.timezone', message: 'Unknown time zone' },
    ]);
    const r = serverErrors(err, (p) => (p === 'first_name' ? 'firstName' : undefined));
    expect(r).toEqual({ fields: { firstName: 'Required' }, form: 'Unknown time zone' });
  });

  it('a 400 whose details name no field of the form shows them, not a bare "Validation failed"', () => {
    const err = refused([{ path: 'items.0.qty', message: 'Quantity must be at least 1' }]);
    expect(serverErrors(err, fieldNamed(['name']))).toEqual({ fields: {}, form: 'Quantity must be at least 1' });
    expect(serverErrors(refused([{ path: '', message: 'To must not be before From' }]))).toEqual({
      fields: {},
      form: 'To must not be before From',
    });
  });

  it('a conflict, a 403 or a lost connection is the form’s message', () => {
    expect(serverErrors(new ApiError(409, 'A payer with this name exists', 'CONFLICT'))).toEqual({
      fields: {},
      form: 'A payer with this name exists',
    });
    // Details of a status other than 400 are not field messages.
    expect(serverErrors(new ApiError(403, 'Not allowed', 'FORBIDDEN', [{ path: 'x', message: 'no' }])).form).toBe(
      'Not allowed',
    );
    expect(serverErrors(new TypeError('Failed to fetch'))).toEqual({ fields: {}, form: 'Failed to fetch' });
  });

  it('an error the server names by its code goes under the field given for it', () => {
    const err = new ApiError(409, 'This email is already in use', 'EMAIL_TAKEN');
    expect(serverErrors(err, fieldNamed(['email']), { EMAIL_TAKEN: 'email' })).toEqual({
      fields: { email: 'This email is already in use' },
      form: undefined,
    });
  });

  it('applyServerErrors sets each field once, focuses the first, and leaves the rest on root.server', () => {
    const calls: [string, string, boolean | undefined][] = [];
    const setError = (name: string, e: { message?: string }, o?: { shouldFocus?: boolean }) =>
      calls.push([name, e.message ?? '', o?.shouldFocus]);
    const err = refused([
      { path: 'name', message: 'Required' },
      { path: 'code', message: 'Taken' },
      { path: 'elsewhere', message: 'Not a field here' },
    ]);
    const placed = applyServerErrors(err, setError, fieldNamed(['name', 'code']));
    expect(placed).toBe(2);
    expect(calls).toEqual([
      ['name', 'Required', true],
      ['code', 'Taken', false],
      ['root.server', 'Not a field here', undefined],
    ]);
  });

  it('fieldErrors is the same reading as one record, the form’s message under `form`', () => {
    expect(fieldErrors(refused([{ path: 'port', message: 'Too big' }]))).toEqual({ port: 'Too big' });
    expect(fieldErrors(new ApiError(409, 'Port in use', 'CONFLICT'))).toEqual({ form: 'Port in use' });
  });

  it('fieldErrors puts an error named by its code under the field given for it', () => {
    const taken = new ApiError(409, 'A supplier with this name exists', 'SUPPLIER_EXISTS');
    expect(fieldErrors(taken, { SUPPLIER_EXISTS: 'name' })).toEqual({ name: 'A supplier with this name exists' });
    expect(fieldErrors(taken)).toEqual({ form: 'A supplier with this name exists' });
  });
});

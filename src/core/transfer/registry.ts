import type { AnyEntity } from './entity.js';
import { patients } from './entities/patients.js';
import { doctors } from './entities/doctors.js';
import { users } from './entities/users.js';
import { tests } from './entities/tests.js';
import { profiles } from './entities/profiles.js';
import { packages } from './entities/packages.js';
import { payers } from './entities/payers.js';
import { payerPrices } from './entities/payer-prices.js';
import { bills } from './entities/bills.js';
import { samples } from './entities/samples.js';
import { results } from './entities/results.js';
import { suppliers } from './entities/suppliers.js';
import { inventory } from './entities/inventory.js';
import { equipment } from './entities/equipment.js';
import { calibrations, maintenance } from './entities/services.js';

/**
 * The entities of `lims import` and `lims export`, in the order a lab loads them (a profile needs
 * its tests, a bill its patient). Adding an entity is one file in ./entities and one line here.
 */
export const ENTITIES: readonly AnyEntity[] = [
  users,
  doctors,
  tests,
  profiles,
  packages,
  payers,
  payerPrices,
  patients,
  bills,
  samples,
  results,
  suppliers,
  inventory,
  equipment,
  calibrations,
  maintenance,
];

export const ENTITY_NAMES: readonly string[] = ENTITIES.map((e) => e.name);

export function entityNamed(name: string): AnyEntity | undefined {
  const n = name.trim().toLowerCase();
  return ENTITIES.find((e) => e.name === n);
}

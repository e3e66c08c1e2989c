/**
 * What src/core still does that eslint/core-features.js forbids, listed so that nothing new joins
 * it: each entry is a debt to pay down, never a place to add one. `knownEdges` are feature imports
 * that still close a cycle; `knownInternals` are files other features (the import and
 * export engine of transfer/, and data-jobs reading transfer's internals) still import directly
 * instead of through the owner's service.ts. Remove an entry when its imports are gone: the rule then keeps them gone.
 */
export const knownEdges = [];

export const knownInternals = [];

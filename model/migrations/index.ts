import { Migration20261121000000Foundation } from './Migration20261121000000Foundation.ts';

/** Committed migrations, applied in this order at start (`cli migrate` runs them alone). */
export const migrations = [
  { name: 'Migration20261121000000Foundation', class: Migration20261121000000Foundation },
];

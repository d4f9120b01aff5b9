// Package assignment: `{type}/{name}/{version}` under the package owner. No package registry is stored
// yet, so every package is unknown: 404.
import { NOT_FOUND } from '../lib/errors.ts';
import { deny, step } from './types.ts';

export const PACKAGE = step('PACKAGE', 'loader', ['user'], ['package'], (s) =>
  s.params.type && s.params.name ? deny(404, NOT_FOUND, { errors: [] }) : null);

// What other domains of lib/ may use of lib/packages/: they import it from here, never from its files.
export { ownsPackages, packagesRoot, removeOwnerPackages, unlinkRepoPackages } from './packages.ts';

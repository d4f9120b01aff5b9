// Packagist's update-package call (Forgejo's services/webhook/packagist.go): the same body for every
// event, naming the package's repository URL. The username and API token travel in the hook's URL
// (`https://packagist.org/api/update-package?username=..&apiToken=..`), as Forgejo stores it.
export interface PackagistMeta {
  username: string;
  api_token: string;
  package_url: string;
}
export interface PackagistPayload {
  repository: { url: string };
}

export const packagistPayload = (meta: PackagistMeta): PackagistPayload => ({ repository: { url: meta.package_url } });

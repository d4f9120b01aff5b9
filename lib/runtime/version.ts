// The version /version reports. Clients (Gitea/Forgejo SDKs, tea, Renovate) gate features on it, so
// cairn reports the Forgejo release whose API it implements, in Forgejo's own format
// (`<forgejo>+gitea-<gitea>`, forgejo-facts 7). cairn's own version is in package.json.
export const API_VERSION = '12.0.0+gitea-1.22.0';

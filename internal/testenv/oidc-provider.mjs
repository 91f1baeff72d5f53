// A real OpenID Provider (panva's oidc-provider) for the tests, on loopback (see
// testenv.StartOIDCProvider).
// It issues RS256 JWT access tokens by the client-credentials grant, with the claims
// in CLAIMS (JSON) added, signed with a fresh key whose kid is KID. With WEB_REDIRECTS
// (a JSON list of URIs) it also has the web app's public client, lexflow-web: the
// authorization-code grant with PKCE through oidc-provider's development login pages.
// SERVICE_CLIENTS (a JSON list of {client_id, client_secret, claims}) adds clients of
// the client-credentials grant whose tokens carry their own claims instead of CLAIMS.
// A token asked for the resource urn:lexflow:temporal has the audience temporal, the
// Temporal server's; any other, lexflow, the API's.
// It prints "ready" once it listens. Environment: NPM_DIR (where
// node_modules/oidc-provider is), PORT, KID, CLAIMS, WEB_REDIRECTS, SERVICE_CLIENTS.
import { generateKeyPairSync } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const { default: Provider } = await import(pathToFileURL(path.join(process.env.NPM_DIR, 'node_modules/oidc-provider/lib/index.js')).href);

const port = Number(process.env.PORT);
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: process.env.KID, alg: 'RS256', use: 'sig' };
const claims = JSON.parse(process.env.CLAIMS || '{}');
const webRedirects = JSON.parse(process.env.WEB_REDIRECTS || 'null') || [];
const serviceClients = JSON.parse(process.env.SERVICE_CLIENTS || 'null') || [];
const claimsOf = Object.fromEntries(serviceClients.map((c) => [c.client_id, c.claims || {}]));
const web = webRedirects.length > 0 ? [{
  client_id: 'lexflow-web', token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code'], response_types: ['code'], redirect_uris: webRedirects,
}] : [];

const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [{
    client_id: 'lexflow-tests', client_secret: 'lexflow-tests-secret',
    grant_types: ['client_credentials'], redirect_uris: [], response_types: [],
  }, ...serviceClients.map((c) => ({
    client_id: c.client_id, client_secret: c.client_secret,
    grant_types: ['client_credentials'], redirect_uris: [], response_types: [],
  })), ...web],
  jwks: { keys: [jwk] },
  features: {
    devInteractions: { enabled: web.length > 0 },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => 'urn:lexflow:api',
      useGrantedResource: () => true,
      getResourceServerInfo: (ctx, resource) => ({
        scope: 'api', audience: resource === 'urn:lexflow:temporal' ? 'temporal' : 'lexflow',
        accessTokenTTL: 300, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } },
      }),
    },
  },
  extraTokenClaims: (ctx, token) => claimsOf[token.clientId] || claims,
});
provider.listen(port, '127.0.0.1', () => console.log('ready'));

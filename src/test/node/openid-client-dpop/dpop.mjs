// Issue 40: openid-client's own DPoP (RFC 9449) against the service, as an integrator would use it.
// Reads the client_id and secret from stdin (never argv, which process lists show), discovers the
// service at the issuer given as the first argument (RFC 8414), makes an ES256 DPoP key, and asks
// for a token twice with that key; prints one JSON line per token, and the key's thumbprint.
// openid-client itself retries once on use_dpop_nonce, with the nonce the answer gave.
import * as client from 'openid-client';
import { calculateJwkThumbprint, exportJWK } from 'jose';

const [issuer, scope] = process.argv.slice(2);
let input = '';
for await (const chunk of process.stdin) input += chunk;
const [clientId, clientSecret] = input.trim().split('\n');

const config = await client.discovery(
  new URL(issuer),
  clientId,
  clientSecret,
  undefined,
  { algorithm: 'oauth2', execute: [client.allowInsecureRequests] },
);
const keyPair = await client.randomDPoPKeyPair('ES256');
const dpop = client.getDPoPHandle(config, keyPair);
const thumbprint = await calculateJwkThumbprint(await exportJWK(keyPair.publicKey));

for (let i = 0; i < 2; i++) {
  const tokens = await client.clientCredentialsGrant(config, { scope }, { DPoP: dpop });
  console.log(JSON.stringify({
    token_type: tokens.token_type,
    access_token: tokens.access_token,
    thumbprint,
  }));
}

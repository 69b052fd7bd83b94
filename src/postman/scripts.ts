/**
 * The collection's own scripts, as JavaScript text for Postman's script sandbox (docs/postman.md:
 * How requests are signed). Before each request: on `/_sandbox`, the programme and the admin token;
 * on `/v1` outside `/v1/auth`, a bearer token (fetched with the environment's credentials, fetched
 * again before it expires or after a 401), an `Idempotency-Key` on a mutation, the RFC 9530
 * `Content-Digest` of the body as sent and an RFC 9421 signature over what the sandbox's strict mode
 * checks (docs/signatures.md: Request verification). After each `/v1` request: a test that request
 * verification accepted it. Nothing is fetched but the token: the signer is inlined (signer.ts).
 */
import { MUTATIONS } from '../domain/idempotency.js';
import { ALGORITHM } from '../signatures/message.js';
import { SIGNER_SOURCE } from './signer.js';

/** The problem codes of request verification: a request answered with one was not accepted. */
export const VERIFICATION_CODES = ['invalid_content_digest', 'invalid_signature', 'missing_idempotency_key', 'invalid_idempotency_key'] as const;

/** Renews the token this many seconds before it expires. */
const TOKEN_MARGIN = 60;

export const PRE_REQUEST = `// card-sandbox: authenticates, digests and signs each request (docs/postman.md). Offline: nothing is downloaded.
var CryptoJS = require('crypto-js');
${SIGNER_SOURCE}

(function () {
  var hexOf = function (words) { return words.toString(CryptoJS.enc.Hex); };
  var lib = {
    sha384: function (text) { return hexOf(CryptoJS.SHA384(text)); },
    hmacSha384: function (keyHex, dataHex) { return hexOf(CryptoJS.HmacSHA384(CryptoJS.enc.Hex.parse(dataHex), CryptoJS.enc.Hex.parse(keyHex))); }
  };
  var url = pm.variables.replaceIn(pm.request.url.toString());
  var parts = /^(https?):\\/\\/([^\\/?#]+)([^?#]*)/i.exec(url);
  if (!parts) throw new Error('card-sandbox: the request URL is not http(s): ' + url);
  var scheme = parts[1].toLowerCase(), path = parts[3] || '/';
  var authority = parts[2].toLowerCase().replace(scheme === 'https' ? /:443$/ : /:80$/, '');
  var header = function (key, value) { pm.request.headers.upsert({ key: key, value: value }); };

  if (path.indexOf('/_sandbox/') === 0) {
    if (pm.variables.get('programme')) header('Sandbox-Programme', pm.variables.get('programme'));
    if (pm.variables.get('adminToken')) header('Authorization', 'Bearer ' + pm.variables.get('adminToken'));
    return;
  }
  if (path.indexOf('/v1/') !== 0 || path.indexOf('/v1/auth/') === 0) return;

  // A request that cannot be signed fails, said plainly, and is not sent (where Postman can skip it).
  var refuse = function (problem) {
    var message = 'card-sandbox: ' + problem;
    pm.test(message, function () { throw new Error(message); });
    if (pm.execution && pm.execution.skipRequest) pm.execution.skipRequest();
    throw new Error(message);
  };
  var p384 = cardSandboxP384(lib);
  if (pm.collectionVariables.get('signerSelfTest') !== 'passed') {
    var problem = p384.selfTest();
    if (problem) refuse('the request signer failed its self-test, no request is signed: ' + problem);
    pm.collectionVariables.set('signerSelfTest', 'passed');
  }
  var key;
  try {
    var pem = String(pm.variables.get('signingPrivateKey') || '');
    key = p384.privateScalar(hexOf(CryptoJS.enc.Base64.parse(pem.replace(/-----[^-]+-----/g, '').replace(/\\s+/g, ''))));
  } catch (error) {
    refuse('signingPrivateKey: ' + error.message);
  }
  var keyId = pm.variables.get('signingKeyId');
  if (!keyId) refuse('signingKeyId is not set in the environment');

  var method = pm.request.method.toUpperCase();
  if (${JSON.stringify([...MUTATIONS])}.indexOf(method) >= 0 && !pm.request.headers.get('Idempotency-Key')) {
    header('Idempotency-Key', pm.variables.replaceIn('{{$guid}}'));
  }
  var components = ['@method', '@authority', '@path'];
  var body = pm.request.body && pm.request.body.mode === 'raw' ? pm.variables.replaceIn(pm.request.body.raw || '') : '';
  if (body !== '') {
    // The bytes digested are the bytes sent: the body goes out with its variables already replaced.
    pm.request.body.update({ mode: 'raw', raw: body, options: { raw: { language: 'json' } } });
    header('Content-Digest', 'sha-512=:' + CryptoJS.SHA512(body).toString(CryptoJS.enc.Base64) + ':');
    components.push('content-digest');
  }

  var send = function (token) {
    header('Authorization', 'Bearer ' + token);
    var params = '(' + components.map(function (c) { return '"' + c + '"'; }).join(' ') + ')' +
      ';created=' + Math.floor(Date.now() / 1000) + ';keyid="' + keyId + '";alg="${ALGORITHM}"';
    var values = { '@method': method, '@authority': authority, '@path': path };
    var base = components.map(function (c) {
      return '"' + c + '": ' + (c in values ? values[c] : String(pm.request.headers.get(c)).trim());
    }).join('\\n') + '\\n"@signature-params": ' + params;
    header('Signature-Input', 'sig=' + params);
    header('Signature', 'sig=:' + CryptoJS.enc.Hex.parse(p384.sign(key, base)).toString(CryptoJS.enc.Base64) + ':');
  };

  var token = pm.collectionVariables.get('token');
  if (token && Number(pm.collectionVariables.get('tokenExpiresAt')) - ${TOKEN_MARGIN} > Date.now() / 1000) return send(token);
  pm.sendRequest({
    url: scheme + '://' + parts[2] + '/v1/auth/token',
    method: 'POST',
    header: { 'Content-Type': 'application/json' },
    body: { mode: 'raw', raw: JSON.stringify({ apiKey: pm.variables.get('apiKey'), apiSecret: pm.variables.get('apiSecret') }) }
  }, function (error, response) {
    if (error) throw new Error('card-sandbox: POST /v1/auth/token failed: ' + error.message);
    if (response.code !== 200) throw new Error('card-sandbox: POST /v1/auth/token answered ' + response.code + ': ' + response.text());
    var answer = response.json();
    pm.collectionVariables.set('token', answer.token);
    pm.collectionVariables.set('tokenExpiresAt', String(answer.expiresAt));
    send(answer.token);
  });
})();
`;

export const TEST = `// card-sandbox: a token refused is fetched again; every /v1 request passed request verification.
(function () {
  var path = pm.variables.replaceIn(pm.request.url.getPath());
  if (path.indexOf('/v1/') !== 0) return;
  if (pm.response.code === 401 || (path.indexOf('/v1/auth/credentials') === 0 && pm.response.code < 300)) pm.collectionVariables.unset('token');
  if (path.indexOf('/v1/auth/') === 0) return;
  pm.test('the sandbox accepted its token, signature, digest and idempotency key', function () {
    var code;
    try { code = pm.response.json().code; } catch (error) { code = undefined; }
    pm.expect(${JSON.stringify(VERIFICATION_CODES)}.concat(['not_authorised'])).to.not.include(code);
  });
})();
`;

/**
 * A worker thread of signing.mjs's freshSignedGets: signs `count` GETs, each with a signature of its
 * own (ECDSA draws a new nonce every time), and posts their header sets back.
 */
import { createPrivateKey } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { signedGetHeaders } from './signing.mjs';

const { pem, keyId, url, path, token, count } = workerData;
const key = { keyId, privateKey: createPrivateKey(pem) };
const headers = [];
for (let i = 0; i < count; i++) headers.push(await signedGetHeaders(key, url, path, token));
parentPort.postMessage(headers);

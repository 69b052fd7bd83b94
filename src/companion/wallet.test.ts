import { describe, expect, it } from 'vitest';
import { recoverPersonalSigner } from '../signatures/eip191.js';
import { createWallet, seededWalletKey } from './wallet.js';

describe('createWallet', () => {
  it('signs a challenge as its address, in the body …/challenge/sign takes', () => {
    const wallet = createWallet({ chain: 'eip155:300' });
    const challenge = Buffer.from('card-sandbox.dev wants you to sign in').toString('base64');
    const body = wallet.signChallenge(challenge);
    expect(body).toMatchObject({ ownerId: `eip155:300:${wallet.address}`, challenge });
    expect(wallet.chainId).toBe(body.ownerId);
    const signature = new Uint8Array(Buffer.from(body.signature, 'base64'));
    expect(recoverPersonalSigner(Buffer.from(challenge, 'base64'), signature)).toBe(wallet.address);
  });

  it('is the same wallet for the same key, and a new one otherwise', () => {
    const key = seededWalletKey(7, 0);
    expect(createWallet({ privateKey: key }).address).toBe(createWallet({ privateKey: key }).address);
    expect(createWallet({ privateKey: seededWalletKey(7, 1) }).address).not.toBe(createWallet({ privateKey: key }).address);
    expect(createWallet().address).not.toBe(createWallet().address);
    expect(createWallet().chainId).toMatch(/^eip155:11155111:0x[0-9a-fA-F]{40}$/);
  });

  it('refuses a private key that is not 32 bytes of hex', () => {
    expect(() => createWallet({ privateKey: '0x1234' })).toThrow('a wallet private key is 32 bytes of hex');
    expect(() => createWallet({ privateKey: 'not hex at all' })).toThrow('a wallet private key is 32 bytes of hex');
  });
});

/**
 * The ECDSA P-384 signer the Postman collection carries in its pre-request script (docs/postman.md:
 * How requests are signed), as JavaScript text: Postman's script sandbox has no ECDSA of its own and
 * a collection that fetched a library at run time would fail offline. Plain BigInt arithmetic on the
 * curve (Jacobian coordinates, a = -3), deterministic nonces (RFC 6979 §3.2, HMAC-SHA-384), raw r‖s
 * out (RFC 9421 §3.3.5). The hashes come from `crypto-js`, which Postman and newman bundle; the
 * self-test signs RFC 6979's known vector (A.2.6, P-384, SHA-384, "sample") and checks the answer
 * before the first request is signed. Not constant-time: it signs sandbox requests with a test key.
 *
 * `cardSandboxP384(lib)` takes `lib`: `sha384(text) → hex`, `hmacSha384(keyHex, dataHex) → hex`;
 * it returns `{ sign(dHex, text) → r‖s hex, publicKey(dHex) → [x, y], verify([x, y], text, sigHex),
 * privateScalar(derHex) → dHex, selfTest() → problem | undefined }`.
 */

/** RFC 6979 A.2.6: the P-384 test key, and its SHA-384 signature of "sample" (r‖s, hex). */
export const TEST_VECTOR = {
  key: '6b9d3dad2e1b8c1c05b19875b6659f4de23c3b667bf297ba9aa47740787137d896d5724e4c70a825f872c9ea60d2edf5',
  signature:
    '94edbb92a5ecb8aad4736e56c691916b3f88140666ce9fa73d64c4ea95ad133c81a648152e44acf96e36dd1e80fabe46' +
    '99ef4aeb15f178cea1fe40db2603138f130e740a19624526203b6351d0a3a94fa329c145786e679e7b82c71a38628ac8',
};

export const SIGNER_SOURCE = `function cardSandboxP384(lib) {
  // secp384r1 (SEC 2 §2.5.1): y^2 = x^3 - 3x + b over GF(P), base point G of order N.
  var P = BigInt('0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff');
  var N = BigInt('0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973');
  var B = BigInt('0xb3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef');
  var G = [
    BigInt('0xaa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7'),
    BigInt('0x3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f'),
    BigInt(1)
  ];
  var ZERO = BigInt(0), ONE = BigInt(1), TWO = BigInt(2), THREE = BigInt(3), FOUR = BigInt(4), EIGHT = BigInt(8);
  var INFINITY = [ZERO, ONE, ZERO];
  var TEST_KEY = '${TEST_VECTOR.key}';
  var TEST_SIGNATURE = '${TEST_VECTOR.signature}';

  function mod(a, m) { var r = a % m; return r < ZERO ? r + m : r; }
  function inverse(a, m) {
    var t = ZERO, nextT = ONE, r = m, nextR = mod(a, m), q, swap;
    while (nextR !== ZERO) {
      q = r / nextR;
      swap = t - q * nextT; t = nextT; nextT = swap;
      swap = r - q * nextR; r = nextR; nextR = swap;
    }
    if (r !== ONE) throw new Error('not invertible');
    return mod(t, m);
  }
  function hex(n, bytes) { var s = n.toString(16); while (s.length < bytes * 2) s = '0' + s; return s; }
  function int(h) { return BigInt('0x' + (h || '0')); }

  // Jacobian coordinates: (X, Y, Z) is the affine point (X/Z^2, Y/Z^3); Z = 0 is the point at infinity.
  function double(p1) {
    var X = p1[0], Y = p1[1], Z = p1[2];
    if (Z === ZERO || Y === ZERO) return INFINITY;
    var delta = Z * Z % P, gamma = Y * Y % P, beta = X * gamma % P;
    var alpha = THREE * ((X - delta) * (X + delta) % P) % P;
    var X3 = mod(alpha * alpha - EIGHT * beta, P);
    var Z3 = mod((Y + Z) * (Y + Z) - gamma - delta, P);
    var Y3 = mod(alpha * (FOUR * beta - X3) - EIGHT * (gamma * gamma % P), P);
    return [X3, Y3, Z3];
  }
  function add(p1, p2) {
    if (p1[2] === ZERO) return p2;
    if (p2[2] === ZERO) return p1;
    var Z1Z1 = p1[2] * p1[2] % P, Z2Z2 = p2[2] * p2[2] % P;
    var U1 = p1[0] * Z2Z2 % P, U2 = p2[0] * Z1Z1 % P;
    var S1 = p1[1] * p2[2] % P * Z2Z2 % P, S2 = p2[1] * p1[2] % P * Z1Z1 % P;
    var H = mod(U2 - U1, P), R = mod(S2 - S1, P);
    if (H === ZERO) return R === ZERO ? double(p1) : INFINITY;
    var HH = H * H % P, HHH = H * HH % P, V = U1 * HH % P;
    var X3 = mod(R * R - HHH - TWO * V, P);
    var Y3 = mod(R * (V - X3) - S1 * HHH, P);
    return [X3, Y3, p1[2] * p2[2] % P * H % P];
  }
  function multiply(k, point) {
    var bits = k.toString(2), result = INFINITY;
    for (var i = 0; i < bits.length; i++) {
      result = double(result);
      if (bits[i] === '1') result = add(result, point);
    }
    return result;
  }
  function affine(p1) {
    var zi = inverse(p1[2], P), zi2 = zi * zi % P;
    return [p1[0] * zi2 % P, p1[1] * zi2 % P * zi % P];
  }
  function onCurve(Q) { return mod(Q[1] * Q[1] - (Q[0] * Q[0] % P * Q[0] - THREE * Q[0] + B), P) === ZERO; }

  // RFC 6979 §3.2 with HMAC-SHA-384: qlen = hlen = 384, so bits2int is the plain integer.
  function nonces(d, h1) {
    var x = hex(d, 48), h = hex(mod(int(h1), N), 48);
    var V = new Array(49).join('01'), K = new Array(49).join('00');
    K = lib.hmacSha384(K, V + '00' + x + h); V = lib.hmacSha384(K, V);
    K = lib.hmacSha384(K, V + '01' + x + h); V = lib.hmacSha384(K, V);
    return function next() {
      for (;;) {
        V = lib.hmacSha384(K, V);
        var k = int(V);
        K = lib.hmacSha384(K, V + '00'); V = lib.hmacSha384(K, V);
        if (k >= ONE && k < N) return k;
      }
    };
  }

  function sign(dHex, text) {
    var d = int(dHex);
    if (d < ONE || d >= N) throw new Error('the private key is not a P-384 scalar');
    var h = lib.sha384(text), e = int(h), next = nonces(d, h);
    for (;;) {
      var k = next();
      var r = affine(multiply(k, G))[0] % N;
      if (r === ZERO) continue;
      var s = inverse(k, N) * ((e + r * d) % N) % N;
      if (s !== ZERO) return hex(r, 48) + hex(s, 48);
    }
  }
  function publicKey(dHex) { return affine(multiply(int(dHex), G)); }
  function verify(Q, text, sigHex) {
    if (!/^[0-9a-f]{192}$/.test(sigHex) || !onCurve(Q)) return false;
    var r = int(sigHex.slice(0, 96)), s = int(sigHex.slice(96));
    if (r < ONE || r >= N || s < ONE || s >= N) return false;
    var w = inverse(s, N), e = int(lib.sha384(text));
    var X = add(multiply(e * w % N, G), multiply(r * w % N, [Q[0], Q[1], ONE]));
    return X[2] !== ZERO && affine(X)[0] % N === r;
  }
  // The private scalar of a DER EC key, SEC 1 (EC PRIVATE KEY) or PKCS #8 (PRIVATE KEY) around it:
  // version 1 (02 01 01), then the key as a 48-byte OCTET STRING (04 30).
  function privateScalar(derHex) {
    for (var at = derHex.indexOf('0201010430'); at >= 0; at = derHex.indexOf('0201010430', at + 1)) {
      if (at % 2 === 0 && derHex.length >= at + 10 + 96) return derHex.slice(at + 10, at + 10 + 96);
    }
    throw new Error('the signing key is not an EC P-384 private key in PEM (BEGIN EC PRIVATE KEY or BEGIN PRIVATE KEY)');
  }
  function selfTest() {
    try {
      var Q = publicKey(TEST_KEY);
      if (!onCurve(Q)) return 'the public point of the test key is not on P-384';
      var signature = sign(TEST_KEY, 'sample');
      if (signature !== TEST_SIGNATURE) return 'signing the RFC 6979 vector gave ' + signature + ', not ' + TEST_SIGNATURE;
      if (!verify(Q, 'sample', signature)) return 'the signature of the RFC 6979 vector does not verify';
      if (verify(Q, 'samplf', signature)) return 'a signature verified over another message';
      return undefined;
    } catch (error) {
      return String(error && error.message || error);
    }
  }
  return { sign: sign, publicKey: publicKey, verify: verify, privateScalar: privateScalar, selfTest: selfTest };
}`;

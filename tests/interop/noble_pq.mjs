// noble_pq.mjs -- this tree's ML-KEM-768 and X-Wing against an
// independent implementation, @noble/post-quantum (audited, pure
// JavaScript; installed for tests only, never shipped).
//
//   node noble_pq.mjs NOBLE_DIR DRIVER [COUNT]
//
// For COUNT seeds (1,000 by default), both ways: noble's keys, its
// ciphertexts and shared secrets for the same randomness equal the
// driver's (pq_driver.c); noble decapsulates a ciphertext the driver
// made with randomness noble was not told, and the driver decapsulates
// one noble made, to the same secrets; and both reject the same random
// ciphertext to the same secret (implicit rejection).  Every input comes
// from SHAKE256 of a run seed that is printed, so NOBLE_SEED=hex
// replays a failure.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import path from 'node:path';

const [dir, driver, countArg] = process.argv.slice(2);
const count = Number(countArg ?? 1000);
const mod = (f) => import(path.join(dir, 'node_modules/@noble/post-quantum', f));
const { ml_kem768 } = await mod('ml-kem.js');
const { ml_kem768_x25519: xwing } = await mod('hybrid.js');

const seed = process.env.NOBLE_SEED ?? randomBytes(16).toString('hex');
console.log(`noble: run seed ${seed} (NOBLE_SEED=${seed} replays it)`);
const stream = createHash('shake256', { outputLength: count * 2 * 4096 })
	.update(Buffer.from(seed, 'hex')).digest();
let at = 0;
const take = (n) => { const b = stream.subarray(at, at + n); at += n; return b; };
const hex = (b) => Buffer.from(b).toString('hex');

const child = spawn(driver, [], { stdio: ['pipe', 'pipe', 'inherit'] });
const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
async function ask(q) {
	child.stdin.write(q + '\n');
	const { value } = await lines.next();
	if (value === undefined || value === 'error')
		throw new Error(`driver failed on: ${q.slice(0, 80)}...`);
	return value.split(' ');
}

let checks = 0, failures = 0;
function same(what, i, a, b) {
	checks++;
	if (a !== b) {
		failures++;
		if (failures <= 10)
			console.log(`noble: FAIL seed ${i}: ${what} differs`);
	}
}

for (let i = 0; i < count; i++) {
	// ML-KEM-768
	const d = take(32), z = take(32), m = take(32), m2 = take(32);
	const junk = take(1088);
	const [ek, dk, c1, k1, c2, k2, kr] = await ask(
		['m', hex(d), hex(z), hex(m), hex(m2), hex(junk)].join(' '));
	const keys = ml_kem768.keygen(Buffer.concat([d, z]));
	same('ML-KEM ek', i, ek, hex(keys.publicKey));
	same('ML-KEM dk', i, dk, hex(keys.secretKey));
	const e1 = ml_kem768.encapsulate(keys.publicKey, m);
	same('ML-KEM ciphertext', i, c1, hex(e1.cipherText));
	same('ML-KEM secret', i, k1, hex(e1.sharedSecret));
	// ours encapsulated with m2, which noble only decapsulates
	same('ML-KEM decapsulation of ours', i, k2,
		hex(ml_kem768.decapsulate(Buffer.from(c2, 'hex'), keys.secretKey)));
	same('ML-KEM implicit rejection', i, kr,
		hex(ml_kem768.decapsulate(junk, keys.secretKey)));

	// X-Wing
	const s = take(32), es = take(64), es2 = take(64);
	const xjunk = Buffer.concat([take(1088), take(32)]);
	const [pk, x1, xk1, x2, xk2, xkr] = await ask(
		['x', hex(s), hex(es), hex(es2), hex(xjunk)].join(' '));
	const xkeys = xwing.keygen(s);
	same('X-Wing public key', i, pk, hex(xkeys.publicKey));
	const xe = xwing.encapsulate(xkeys.publicKey, es);
	same('X-Wing ciphertext', i, x1, hex(xe.cipherText));
	same('X-Wing secret', i, xk1, hex(xe.sharedSecret));
	same('X-Wing decapsulation of ours', i, xk2,
		hex(xwing.decapsulate(Buffer.from(x2, 'hex'), xkeys.secretKey)));
	// and ours of noble's, made with randomness we were not given
	const xe3 = xwing.encapsulate(xkeys.publicKey, take(64));
	const [, , , , , mine] = await ask(
		['x', hex(s), hex(es), hex(es2), hex(xe3.cipherText)].join(' '));
	same('X-Wing decapsulation of noble\'s', i, mine, hex(xe3.sharedSecret));
	same('X-Wing implicit rejection', i, xkr,
		hex(xwing.decapsulate(xjunk, xkeys.secretKey)));
}
child.stdin.end();
console.log(`noble: ${count} seeds, ${checks} comparisons, ${failures} failed`);
process.exit(failures === 0 && checks > 0 ? 0 : 1);

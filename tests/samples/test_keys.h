/*
 * test_keys.h -- fixed keys for the tests, made by age-keygen 1.1.1 and
 * ssh-keygen (OpenSSH 9.2) for aescrypt and committed: an age identity
 * with its recipient, and an unencrypted OpenSSH ed25519 key pair.  Used
 * by tests/unit/test_recipient.c, tests/samples/mksamples.c (the ssh
 * samples) and tests/fuzz/fuzz_header.c.  Never use them for anything
 * real: they are public.
 */
#ifndef AE_TEST_KEYS_H
#define AE_TEST_KEYS_H

static const char test_age_secret[] =
    "AGE-SECRET-KEY-16M4MTYEAASA6ND8LSZMLX9KPLRQ93PW0L4LD8G33LJCXE7Z7T9EQMX5HJ8";
static const char test_age_public[] =
    "age1yhl49rply0ppz88n4pll3cegnvech53h2ywzswt6lrgem66xyasqrzt4uf";
static const char test_ssh_private[] =
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
    "QyNTUxOQAAACAKXnawwE1VZCAG8h47QM1MSR0iw4TNEvfDTvFSzOQh8QAAAJCB7drQge3a\n"
    "0AAAAAtzc2gtZWQyNTUxOQAAACAKXnawwE1VZCAG8h47QM1MSR0iw4TNEvfDTvFSzOQh8Q\n"
    "AAAECY3wzplsGEcSXzAcoO1l6/fyo8iRnKdEWGa3pn3HCk7gpedrDATVVkIAbyHjtAzUxJ\n"
    "HSLDhM0S98NO8VLM5CHxAAAADXRlc3RAYWVzY3J5cHQ=\n"
    "-----END OPENSSH PRIVATE KEY-----\n";
static const char test_ssh_public[] =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIApedrDATVVkIAbyHjtAzUxJHSLDhM0S98NO8VLM5CHx test@aescrypt";

#endif

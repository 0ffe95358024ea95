/*
 * test_keys.h -- fixed keys for the tests, made by age-keygen 1.1.1 and
 * ssh-keygen (OpenSSH 9.2) for aescrypt and committed: an age identity
 * with its recipient, an unencrypted OpenSSH ed25519 key pair, and two
 * passphrase-protected ones.  Used
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

/* The same kind of key under the passphrase "test pass", as
 * ssh-keygen -N writes it: bcrypt (2 and 3 rounds, to keep the tests
 * quick) with aes256-ctr and with aes256-gcm@openssh.com.  A known-answer
 * test of bcrypt_pbkdf and of both ciphers, made by OpenSSH. */
#define TEST_SSH_LOCKED_PASS "test pass"
static const char test_ssh_locked_ctr[] =
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAACmFlczI1Ni1jdHIAAAAGYmNyeXB0AAAAGAAAABDx9okCOU\n"
    "T4aeHilIWNxXa3AAAAAgAAAAEAAAAzAAAAC3NzaC1lZDI1NTE5AAAAIBGrCGh346PGdiyO\n"
    "ufZS9ViKZi6GKzW0hGtPcK2PdBimAAAAkMuX7YHGNwMfiTkGTzwKcvN5K06d4FR4lAf4MT\n"
    "6RRxaYdjQ3qUXe0mHNUnsqq6xMl1rub80mEDsxBx3WsgrErgTlijEyo96omrF1g854fydX\n"
    "0yVh7SpAbv1in3KJnAzGq8Jjo3K/854VtxpUPsAt+hzyKyv+eg4A0cPADaL2gpgDtxfFxt\n"
    "0cgmermEH/a+FQ5Q==\n"
    "-----END OPENSSH PRIVATE KEY-----\n";
static const char test_ssh_locked_ctr_public[] =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIBGrCGh346PGdiyOufZS9ViKZi6GKzW0hGtPcK2PdBim locked-ctr";
static const char test_ssh_locked_gcm[] =
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAAFmFlczI1Ni1nY21Ab3BlbnNzaC5jb20AAAAGYmNyeXB0AA\n"
    "AAGAAAABCsWXCSZq4dTY0Zdc3TR92uAAAAAwAAAAEAAAAzAAAAC3NzaC1lZDI1NTE5AAAA\n"
    "IPp+yrBml3+zqIS4SFQPkvMB7Op2Li9M7S8IAbCdwJahAAAAkN0+AyqxYSRGKzcXCU7YLp\n"
    "ZQdU64O0jVWOa0f5k9KkmeXdffFU5E1b+Ww+dzDWJmlaKtEi7y58q1N+Dgd18yFR+IDVvN\n"
    "yE0yQ+XOPuHEeRpYfq1ovP8SYMtGvlt0Xayc+vofHw9DQcOJZxIDntCsQv+kkBsw73P9rb\n"
    "67lLvfuuwoBnDM7iKIkI6msFcQKjgo0t1YNPMqt0rG80hGkvCJhko=\n"
    "-----END OPENSSH PRIVATE KEY-----\n";
static const char test_ssh_locked_gcm_public[] =
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIPp+yrBml3+zqIS4SFQPkvMB7Op2Li9M7S8IAbCdwJah locked-gcm";

#endif

/*
 * test_keys.h -- fixed keys for the tests, made by age-keygen 1.1.1 and
 * ssh-keygen (OpenSSH 9.2) for aescrypt and committed: an age identity
 * with its recipient, an unencrypted OpenSSH ed25519 key pair, two
 * passphrase-protected ones, and RSA keys (2048 bits, plain and
 * protected; 1024 bits, public only).  Used
 * by tests/unit/test_recipient.c, tests/samples/mksamples.c (the ssh
 * samples) and tests/fuzz/fuzz_header.c.  Never use them for anything
 * real: they are public.
 */
#ifndef AE_TEST_KEYS_H
#define AE_TEST_KEYS_H

static const char test_age_secret[] =
    "AGE-SECRET-KEY-16M4MTYEAASA6ND8LSZMLX9KPLRQ93PW0L4LD8G33LJCXE7Z7T9EQMX5HJ8";
/* The post-quantum sample identity (sample-pq-identity.txt, 4.8). */
static const char test_pq_secret[] =
    "AGE-SECRET-KEY-PQ-1QJNWHCU7C7FSA8ZZEYRDW665UKNJ8LJCXAK2HENA0ADZ8M7VPCJQE7439Q";
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

/* An RSA 2048-bit key pair, unencrypted and (another one) under the
 * passphrase "test pass" with 2 bcrypt rounds, and an RSA 1024-bit
 * public key (too weak: refused), made by ssh-keygen (OpenSSH 9.2). */
static const char test_rsa_private[] =
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAABFwAAAAdzc2gtcn\n"
    "NhAAAAAwEAAQAAAQEAg8R7VMeeiWTmYDFjoO8NChj+s567H0ANxOoR9V4ZBkiDHDejfWuy\n"
    "5fBpOi2v08B81KrFrMVDpdOSd5aHzKnxAV9J6H4l7nokK7Qnn9PRxprmXGgDd/kdGE1EHR\n"
    "BEom26/4qUnUGH15H1GsUQvbYvzryTX1gVhVlMStwGZGD3I2WlQaf7C+bdttzYI3IrxrQ6\n"
    "toGNxozoKtBgCuZehSdX+BHuKLdwZ+rwc+Z57+ePerEn+IG30lTFchWGr0ZErT10hnBdhI\n"
    "FTMtr6RCxYUHfFB+C1opotsUEEO8QlWTvOCg/7WeDuQKuSe2CXLyq0hcW7Blwtx5HQpI9A\n"
    "DLdJKB72WwAAA8AINNzXCDTc1wAAAAdzc2gtcnNhAAABAQCDxHtUx56JZOZgMWOg7w0KGP\n"
    "6znrsfQA3E6hH1XhkGSIMcN6N9a7Ll8Gk6La/TwHzUqsWsxUOl05J3lofMqfEBX0nofiXu\n"
    "eiQrtCef09HGmuZcaAN3+R0YTUQdEESibbr/ipSdQYfXkfUaxRC9ti/OvJNfWBWFWUxK3A\n"
    "ZkYPcjZaVBp/sL5t223NgjcivGtDq2gY3GjOgq0GAK5l6FJ1f4Ee4ot3Bn6vBz5nnv5496\n"
    "sSf4gbfSVMVyFYavRkStPXSGcF2EgVMy2vpELFhQd8UH4LWimi2xQQQ7xCVZO84KD/tZ4O\n"
    "5Aq5J7YJcvKrSFxbsGXC3HkdCkj0AMt0koHvZbAAAAAwEAAQAAAP8JAeVsZjjwK3WUHcwx\n"
    "tCWwCwVeQfuIp1hJnbacj1Imm85an3MNn88a6NRIpdbfIsllwEbDCLkXHN9mTWP7GaLf9S\n"
    "OYQQdWxgKy+h27Tz+H1A7rQjD6goz6nE2LrxECCX4++bovBcvDcLbQnagHT+z0tO9eFSdj\n"
    "djdA5smJExfR04fcLw+/cPBjv9tC1Mf5tsY/HEc1nkzOY66a3zX6XeDlpjH4HwLJzwbJab\n"
    "vXdWPeff3h0deXva/TQ4OAVzmYFBO0ohmnEhJbI9/cvAk0uQ/6ivgMozrJYHQShCK/xzKw\n"
    "zPmsE/afexWUpwe5UlVI7B3y/Za8yYYuWf3JuL0OLhUAAACAVq2aP9A5M0gmzjQCFlKEfD\n"
    "VtJ7Tami5o5CROtpHOVeQYkVIA7lvd6F20T77s6S+JiVLi6lR/NWGHm2uBF3R77CPsv/1A\n"
    "uFx4GGBUuj7CSUAx9WHemNlKs6T9/VLm6GCqvvEdlIH5VNIqN51tlXFpFDzOLAfmP6Sxj0\n"
    "yD1GmMrPEAAACBALg+wC3YaqWCHn8uO55EWWDI07tJb3xjwAm/f0iVSlQEcIa+/VTv8/mf\n"
    "cD/ofwE8PsSTX8dt+34DuTz1fH+W8Xj7yeGtoe/rEjprqaEDcDexgkuUYgPCLBnsMwkxqz\n"
    "t8DI2pym5KFa0NSw34Jm71YR6xFBskzgalW58X1xDflVR/AAAAgQC3FbW/kogdbIA7jBFd\n"
    "I1cyRyJ9Wg6nZTUUjHEYIe2+Q66u0tBXTrfYLR4nrNLhONrS8tzUanJyWSQhRuO3aaFAh5\n"
    "Nhtx3vU1BZaTO/fHFXMEHsXR4julM7gzZLeUgz7R5CMvdCgl+qBDh8ZRIQznv9TGTGKDxO\n"
    "HkcMoU2MAJZAJQAAAAxyc2FAYWVzY3J5cHQ=\n"
    "-----END OPENSSH PRIVATE KEY-----\n";
static const char test_rsa_public[] =
    "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQCDxHtUx56JZOZgMWOg7w0KGP6znrsfQA3E6hH1XhkGSIMcN6N9a7Ll8Gk6La/TwHzUqsWsxUOl05J3lofMqfEBX0nofiXueiQrtCef09HGmuZcaAN3+R0YTUQdEESibbr/ipSdQYfXkfUaxRC9ti/OvJNfWBWFWUxK3AZkYPcjZaVBp/sL5t223NgjcivGtDq2gY3GjOgq0GAK5l6FJ1f4Ee4ot3Bn6vBz5nnv5496sSf4gbfSVMVyFYavRkStPXSGcF2EgVMy2vpELFhQd8UH4LWimi2xQQQ7xCVZO84KD/tZ4O5Aq5J7YJcvKrSFxbsGXC3HkdCkj0AMt0koHvZb rsa@aescrypt";
static const char test_rsa_locked[] =
    "-----BEGIN OPENSSH PRIVATE KEY-----\n"
    "b3BlbnNzaC1rZXktdjEAAAAACmFlczI1Ni1jdHIAAAAGYmNyeXB0AAAAGAAAABDGh1MeCH\n"
    "o5EGAlP910SS78AAAAAgAAAAEAAAEXAAAAB3NzaC1yc2EAAAADAQABAAABAQClXJtifxKE\n"
    "J8RQ+6U95aMr9FyNfiFzYZw92TpnqMVdxj4EiHUMativkVvFZb+aMSanYjj37OGANAwbGY\n"
    "Qy0t6lc+vjQkcM87f3lGjtLzB5Yq65uiMsfjp3qn+HBEeB18gZFvKDOH/MvhotlJIEGyDt\n"
    "rSmAMQ7WGJwbJ4GQiiTfILuxXdGDg5bWMFHYy4cxfr7E6AXUfsb6vE5F2aFPuZHmMVMrtE\n"
    "GbGsmCPIn45RcWIk6dCvYxknR35CEU4IqxDLSW90e78tMmt89htezHzzalhQe4pLWALu3a\n"
    "PwQNK+j4YSQZ8RRGziXYDVKg52PCAhxwqG8/7PNVV3KT57Cp4ReJAAAD0Bx2ERWx3x/DHm\n"
    "Q9zHBhLZBlphap3NGBFrsgSC29r8Ge8I2WL+tlcPc54wCnDj1326fdLCmBi/xtuHEMmDVt\n"
    "zI9XErIeUJ2RsHtBMU6I7XFM3MEIuR0b0CFH+wpYC4/xRs323vXp40/L4Htj4slS2NpWko\n"
    "l9yHJnUMuBDa4qIOEPcbjTG06bcU3vCdlBQ11/ju+vZaa9tHn4+BqPg0GXz4z03z1UCPiQ\n"
    "o7Hv2cCYOe7E8i/3/vJ9QqEXsd9d5jevfvgUdit4SjpnMxTPGA28lIEOewWqwPq3ojzog7\n"
    "WPag4YxfXl8KV46ZmXaE7GTnp60qQq4eAYjGN8AXjLuqBDVv3gaUyPxw8yL+1yC+NYWUdW\n"
    "PSCSQnnLqCXCirvY1zs97urlBPQqXxaaF03Ps3+/zgg+AmeOPDlkm2zjTQzGr6NJ+xRQvv\n"
    "xoKHGR2bxVu2+c9wMhKnz7LsL51QEe3VwdWd5WQEgLyMgH5ruYvryzDndwLc/fnpRqvRFd\n"
    "SQkkDrNej1YFe8dnwv/ggQ1Z0KufAHV5WP86eoMQ2fZGOr0II7ys23G49RbM5lccUyElsS\n"
    "l7YZ2ArzdMk08jR79kya4lACF0wfXgwDJfkSv8oQ5XsmQy9GP48hnysWLPVaLxT4MpQ/55\n"
    "ZLyihi1BH17lxfOupXNzOLq3iTf0GDOq+4fmU/dheXyZKtUGbkX1IAbU3UBhllHnqhKqGM\n"
    "XBcHjr0yy9iKma4kYr98NAU4SFAC/aMp62rhHUF9VnDk9h8CYzS2w8paywWQn2UU904D/7\n"
    "uXNRhXrr/sgZ3ew8g26jvA/FFvBxqoBT+RbWSjXYXRB291m1teil30qgYO1p4dkt1kyA2h\n"
    "XVMy+WxHxtP6R1UAMEoS3gpQXikNtSZJBdlXu7n1Yh9kO2S6tDzsp40j2SRtGMihxAoK++\n"
    "DBeYf4f6SAyFfBvVZ/CsDZmRVqQhyAj+1Fa36Ifw7u8HGucStmkcg2GsLhYV7jm/1ZO3BF\n"
    "dF3efBjQD2dGL2UV1+Wlo1JhzVwWL9kJ8SxN6TiqNomwzq9ngntVtBFChUPMl4Y/IqoS5P\n"
    "e9WU8eaCHGNEYiz62d0xMCu/eN4R/1nYOMzZDgjnpBoN2WQ2GmwQsDExzgykRA8T/mF28W\n"
    "j1uAn3EBs1SjRlTz1ZipogIpfRpeuFL+6A68DvLEu5yNLd39vfosE+uwdmYgSefH6l4iHF\n"
    "y/jwvH2P4vrzZFavIixlEcRjR5RSwIK6zvh6iB4E1xpfDZvlPoPiM4hQb7xzRhnmQ82mCy\n"
    "QLWr65qCzgfSMKnVmIx1qCFe+GnJM=\n"
    "-----END OPENSSH PRIVATE KEY-----\n";
static const char test_rsa_locked_public[] =
    "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQClXJtifxKEJ8RQ+6U95aMr9FyNfiFzYZw92TpnqMVdxj4EiHUMativkVvFZb+aMSanYjj37OGANAwbGYQy0t6lc+vjQkcM87f3lGjtLzB5Yq65uiMsfjp3qn+HBEeB18gZFvKDOH/MvhotlJIEGyDtrSmAMQ7WGJwbJ4GQiiTfILuxXdGDg5bWMFHYy4cxfr7E6AXUfsb6vE5F2aFPuZHmMVMrtEGbGsmCPIn45RcWIk6dCvYxknR35CEU4IqxDLSW90e78tMmt89htezHzzalhQe4pLWALu3aPwQNK+j4YSQZ8RRGziXYDVKg52PCAhxwqG8/7PNVV3KT57Cp4ReJ rsa-locked@aescrypt";
static const char test_rsa_small_public[] =
    "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAAAgQCvfGktqe9q7beTR8z1yhrOMfLafHY4NFmWmrnvaYU4lsMC7kOXmTuy7vu8Jc5ubZ0v/919cwLyEOtLsmjiV1OwlDCoibRtf5VxeBoeQDgMRGxGJdjWvF1wir93lXVJYVHKKmtCD9mNU6OngLorb6llh3EPz5Kq2Wqp6VgP6DyloQ== small";

#endif

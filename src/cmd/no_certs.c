/* libgit2 parses the system's CA bundle (about 220 kB of PEM, 8 ms) when
 * it starts, for HTTPS remotes. alloclint only reads local repositories
 * (ignore rules, changed files), so the executable answers libgit2's two
 * certificate-loading calls itself: exported from the executable, these
 * definitions take precedence over libmbedx509's. A build of libgit2 on
 * another TLS library never calls them and is unaffected. */

/* mbedtls's signatures, the chain left opaque: nothing here touches it. */
int mbedtls_x509_crt_parse_file(void *chain, const char *path);
int mbedtls_x509_crt_parse_path(void *chain, const char *path);

int mbedtls_x509_crt_parse_file(void *chain, const char *path)
{
    (void)chain;
    (void)path;
    return 0; /* an empty chain, parsed without error */
}

int mbedtls_x509_crt_parse_path(void *chain, const char *path)
{
    (void)chain;
    (void)path;
    return 0;
}

// Not production code: what the architecture test's SQL detector must find (three) and must not (the rest).
export const found = ['SELECT a FROM t', `INSERT INTO t VALUES (1)`, `UPDATE findings SET state = 'x'`];
export const notFound = ['Select a finding', 'COPY and EXPORT are refused', 'see SELECT finding_key FROM open_exceptions', 'Usage: recon sql "SELECT …"'];

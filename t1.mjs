import { DuckDBInstance } from '@duckdb/node-api';
import duckdb from '@duckdb/node-bindings';
const inst = await DuckDBInstance.create(':memory:');
const c = await inst.connect();
const r = await c.stream("SELECT i, CASE WHEN i<100000 THEN i ELSE CAST('x'||i AS INTEGER) END FROM range(200000) t(i)");
let n=0;
for await (const ch of r) n+= ch.rowCount;
console.log('rows', n);
console.log(Object.keys(duckdb).filter(k=>/error|result_/.test(k)).join(' '));
try { console.log('err', duckdb.result_error?.(r.result)); } catch(e) { console.log('x', e.message); }
const r2 = await c.stream("SELECT i, CASE WHEN i<100000 THEN i ELSE CAST('x'||i AS INTEGER) END FROM range(200000) t(i)");
try { while(true){ const ch = await duckdb.fetch_chunk(r2.result); if(!ch) {console.log('null'); break;} } } catch(e) { console.log('thrown', e.message); }

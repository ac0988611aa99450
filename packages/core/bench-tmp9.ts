import { readFileSync } from 'node:fs';
import { ratio } from './harness-tmp.ts';
import { parseStrictJson } from './src/json/strict-json.ts';
import { bodyToText } from './src/body/body-text.ts';
const json = readFileSync('./test/fixtures/delivery-receipt/single-delivered.json', 'utf8');
const min = JSON.stringify(JSON.parse(json));
for (const t of [json, min]) {
const j = () => JSON.parse(t);
console.log(t.length, 'strict', ratio(j, () => parseStrictJson(t), 3000, 41));
console.log('bodyToText', ratio(j, () => bodyToText(t, 65536), 3000, 41));
let c = 0;
console.log('scan colon loop', ratio(j, () => { let n = 0; for (let i = 0; i < t.length; i++) if (t.charCodeAt(i) === 58) n++; c += n; }, 3000, 41));
}

// Shared helpers of the stand-in engine (see ./vllm).
export const pad = (n) => String(n).padStart(2, '0');
export const stamp = () => {
  const d = new Date();
  return `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
};

/** argparse-like: `--k v` → {k: 'v'}, a bare `--k` → {k: true}, positionals in `_`. */
export function flags(list) {
  const out = { _: [] };
  for (let i = 0; i < list.length; i++) {
    const a = list[i];
    if (!a.startsWith('--')) { out._.push(a); continue; }
    const key = a.slice(2).replaceAll('-', '_');
    const next = list[i + 1];
    if (next === undefined || next.startsWith('--')) out[key] = true;
    else { out[key] = next; i++; }
  }
  return out;
}

/** A JS value as Python's repr prints it (vLLM's `non-default args: {...}`). */
export function pyRepr(v) {
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return String(v);
  if (typeof v === 'string') {
    if (/^-?\d+(\.\d+)?$/.test(v)) return v;
    return `'${v}'`;
  }
  if (v && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `'${k}': ${pyRepr(x)}`).join(', ')}}`;
  return 'None';
}

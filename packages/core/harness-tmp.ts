const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
export function ratio(base: () => unknown, ours: () => unknown, batch = 2000, rounds = 41): { base: number; ours: number; ratio: number } {
  for (let i = 0; i < batch * 3; i++) { base(); ours(); }
  const ratios: number[] = []; const bs: number[] = []; const os: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let t = cpu(); for (let i = 0; i < batch; i++) base(); const b = cpu() - t;
    t = cpu(); for (let i = 0; i < batch; i++) ours(); const o = cpu() - t;
    ratios.push(o / b); bs.push(b / batch * 1e6); os.push(o / batch * 1e6);
  }
  const med = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1] as number;
  return { base: Math.round(med(bs)), ours: Math.round(med(os)), ratio: Number(med(ratios).toFixed(3)) };
}

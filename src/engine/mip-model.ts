// A mixed-integer model as plain data: named columns with bounds and integrality, named rows
// with bounds over sparse entries. Every backend reads this one structure, and it writes
// itself as CPLEX LP text for diagnostics. Names are deterministic and use only letters,
// digits and '_', so the LP text reads the same in every tool.

export interface Objective {
  sense: 'max' | 'min';
  /** Cost per column (dense). */
  costs: Float64Array;
}

export class MipModel {
  readonly colNames: string[] = [];
  readonly colLower: number[] = [];
  readonly colUpper: number[] = [];
  readonly colInteger: boolean[] = [];
  readonly rowNames: string[] = [];
  readonly rowLower: number[] = [];
  readonly rowUpper: number[] = [];
  /** CSR: row r's entries are indices/values[rowStarts[r] .. rowStarts[r+1]). */
  readonly rowStarts: number[] = [0];
  readonly indices: number[] = [];
  readonly values: number[] = [];
  /** Comment lines written at the top of the LP text (what the short names stand for). */
  readonly legend: string[] = [];

  get numCols(): number {
    return this.colNames.length;
  }

  get numRows(): number {
    return this.rowNames.length;
  }

  addCol(name: string, lower: number, upper: number, integer: boolean): number {
    this.colNames.push(name);
    this.colLower.push(lower);
    this.colUpper.push(upper);
    this.colInteger.push(integer);
    return this.colNames.length - 1;
  }

  addRow(name: string, lower: number, upper: number, cols: readonly number[], coefs: readonly number[]): number {
    this.rowNames.push(name);
    this.rowLower.push(lower);
    this.rowUpper.push(upper);
    for (let i = 0; i < cols.length; i++) {
      this.indices.push(cols[i]!);
      this.values.push(coefs[i]!);
    }
    this.rowStarts.push(this.indices.length);
    return this.rowNames.length - 1;
  }

  /** A copy of the first `numCols` columns and `numRows` rows (which must use only those columns), legend included. */
  prefix(numCols: number, numRows: number): MipModel {
    const m = new MipModel();
    m.legend.push(...this.legend);
    for (let j = 0; j < numCols; j++) m.addCol(this.colNames[j]!, this.colLower[j]!, this.colUpper[j]!, this.colInteger[j]!);
    for (let r = 0; r < numRows; r++) {
      const from = this.rowStarts[r]!;
      const to = this.rowStarts[r + 1]!;
      m.addRow(this.rowNames[r]!, this.rowLower[r]!, this.rowUpper[r]!, this.indices.slice(from, to), this.values.slice(from, to));
    }
    return m;
  }

  /** The model as CPLEX LP text, with the given objective and optional row-bound overrides. */
  toLpText(objective: Objective, rowBounds: ReadonlyMap<number, [number, number]> = new Map()): string {
    const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : String(Math.round(n * 1e9) / 1e9));
    const term = (coef: number, col: number, first: boolean): string => {
      const sign = coef < 0 ? '- ' : first ? '' : '+ ';
      const abs = Math.abs(coef);
      return `${sign}${abs === 1 ? '' : `${fmt(abs)} `}${this.colNames[col]}`;
    };
    const wrap = (parts: string[]): string => {
      const lines: string[] = [];
      let line = '';
      for (const p of parts) {
        if (line.length + p.length > 200) {
          lines.push(line);
          line = '   ';
        }
        line += ` ${p}`;
      }
      lines.push(line);
      return lines.join('\n');
    };
    const out: string[] = this.legend.map((l) => `\\ ${l}`);
    out.push(objective.sense === 'max' ? 'Maximize' : 'Minimize');
    const objParts: string[] = [];
    objective.costs.forEach((c, j) => {
      if (c !== 0) objParts.push(term(c, j, objParts.length === 0));
    });
    out.push(` obj:${objParts.length ? wrap(objParts) : ' 0 ' + (this.colNames[0] ?? '')}`);
    out.push('Subject To');
    for (let r = 0; r < this.numRows; r++) {
      const [lo, up] = rowBounds.get(r) ?? [this.rowLower[r]!, this.rowUpper[r]!];
      if (lo === -Infinity && up === Infinity) continue;
      const parts: string[] = [];
      for (let k = this.rowStarts[r]!; k < this.rowStarts[r + 1]!; k++) parts.push(term(this.values[k]!, this.indices[k]!, parts.length === 0));
      if (parts.length === 0) continue;
      const lhs = wrap(parts);
      if (lo === up) out.push(` ${this.rowNames[r]}:${lhs} = ${fmt(lo)}`);
      else if (lo === -Infinity) out.push(` ${this.rowNames[r]}:${lhs} <= ${fmt(up)}`);
      else if (up === Infinity) out.push(` ${this.rowNames[r]}:${lhs} >= ${fmt(lo)}`);
      else out.push(` ${this.rowNames[r]}: ${fmt(lo)} <=${lhs} <= ${fmt(up)}`);
    }
    out.push('Bounds');
    const binaries: string[] = [];
    const generals: string[] = [];
    for (let j = 0; j < this.numCols; j++) {
      const lo = this.colLower[j]!;
      const up = this.colUpper[j]!;
      const name = this.colNames[j]!;
      if (this.colInteger[j] && lo === 0 && up === 1) {
        binaries.push(name);
        continue;
      }
      if (this.colInteger[j]) generals.push(name);
      if (lo === up) out.push(` ${name} = ${fmt(lo)}`);
      else out.push(` ${lo === -Infinity ? '-inf' : fmt(lo)} <= ${name} <= ${up === Infinity ? '+inf' : fmt(up)}`);
    }
    if (binaries.length) out.push('Binaries', wrap(binaries));
    if (generals.length) out.push('Generals', wrap(generals));
    out.push('End', '');
    return out.join('\n');
  }
}

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
  /** Comment lines written at the top of the LP text (what the short names stand for). */
  readonly legend: string[] = [];
  // The entries, in typed arrays that double when full (a model has hundreds of thousands; plain
  // arrays grown one push at a time cost the formulation most of its time and garbage).
  private starts = new Int32Array(64);
  private cols = new Int32Array(256);
  private coefs = new Float64Array(256);
  private entries = 0;
  /** Each column's rows (CSC of the row structure), for fixedExcept; built on first use, again once rows or columns are added. */
  private byCol?: { entries: number; numCols: number; starts: Int32Array; rows: Int32Array };

  get numCols(): number {
    return this.colNames.length;
  }

  get numRows(): number {
    return this.rowNames.length;
  }

  /** CSR: row r's entries are indices/values[rowStarts[r] .. rowStarts[r+1]) (views, valid until the next row is added). */
  get rowStarts(): Int32Array {
    return this.starts.subarray(0, this.numRows + 1);
  }

  get indices(): Int32Array {
    return this.cols.subarray(0, this.entries);
  }

  get values(): Float64Array {
    return this.coefs.subarray(0, this.entries);
  }

  addCol(name: string, lower: number, upper: number, integer: boolean): number {
    this.colNames.push(name);
    this.colLower.push(lower);
    this.colUpper.push(upper);
    this.colInteger.push(integer);
    return this.colNames.length - 1;
  }

  /** Adds a row; `coefs` is one coefficient per column, or one number for all of them. */
  addRow(name: string, lower: number, upper: number, cols: ArrayLike<number>, coefs: ArrayLike<number> | number): number {
    const r = this.rowNames.length;
    if (r + 2 > this.starts.length) this.starts = grown(this.starts, r + 2);
    const need = this.entries + cols.length;
    if (need > this.cols.length) {
      this.cols = grown(this.cols, need);
      this.coefs = grown(this.coefs, need);
    }
    for (let i = 0; i < cols.length; i++) {
      this.cols[this.entries] = cols[i]!;
      this.coefs[this.entries++] = typeof coefs === 'number' ? coefs : coefs[i]!;
    }
    this.rowNames.push(name);
    this.rowLower.push(lower);
    this.rowUpper.push(upper);
    this.starts[r + 1] = this.entries;
    return r;
  }

  /** A copy of the first `numCols` columns and `numRows` rows (which must use only those columns), legend included. */
  prefix(numCols: number, numRows: number): MipModel {
    const m = new MipModel();
    m.legend.push(...this.legend);
    for (let j = 0; j < numCols; j++) m.addCol(this.colNames[j]!, this.colLower[j]!, this.colUpper[j]!, this.colInteger[j]!);
    const entries = this.starts[numRows]!;
    m.starts = this.starts.slice(0, Math.max(64, numRows + 1));
    m.cols = this.cols.slice(0, Math.max(256, entries));
    m.coefs = this.coefs.slice(0, Math.max(256, entries));
    m.entries = entries;
    for (let r = 0; r < numRows; r++) {
      m.rowNames.push(this.rowNames[r]!);
      m.rowLower.push(this.rowLower[r]!);
      m.rowUpper.push(this.rowUpper[r]!);
    }
    return m;
  }

  /**
   * The model with every column but the `free` ones fixed at `values`: the free columns, and every
   * row over at least one of them with its bounds (`rowBounds` first) less what the fixed columns
   * contribute. Rows over fixed columns alone are left out (`values` must satisfy them), so a
   * neighbourhood of a large model solves as a small one. `cols` maps each column to the model's.
   */
  fixedExcept(
    values: ArrayLike<number>,
    free: (col: number) => boolean,
    rowBounds: ReadonlyMap<number, [number, number]>,
  ): { model: MipModel; cols: Int32Array } {
    const m = new MipModel();
    const at = new Int32Array(this.numCols).fill(-1);
    const cols: number[] = [];
    for (let j = 0; j < this.numCols; j++) {
      if (!free(j)) continue;
      at[j] = m.addCol(this.colNames[j]!, this.colLower[j]!, this.colUpper[j]!, this.colInteger[j]!);
      cols.push(j);
    }
    const rowCols: number[] = [];
    const rowCoefs: number[] = [];
    for (const r of this.rowsOver(cols)) {
      const [lo, up] = rowBounds.get(r) ?? [this.rowLower[r]!, this.rowUpper[r]!];
      if (lo === -Infinity && up === Infinity) continue;
      rowCols.length = 0;
      rowCoefs.length = 0;
      let fixed = 0;
      for (let k = this.starts[r]!; k < this.starts[r + 1]!; k++) {
        const j = this.cols[k]!;
        if (at[j]! >= 0) {
          rowCols.push(at[j]!);
          rowCoefs.push(this.coefs[k]!);
        } else fixed += this.coefs[k]! * values[j]!;
      }
      if (rowCols.length > 0) m.addRow(this.rowNames[r]!, lo - fixed, up - fixed, rowCols, rowCoefs);
    }
    return { model: m, cols: Int32Array.from(cols) };
  }

  /**
   * The rows with an entry in any of `cols`, in row order: the rows a neighbourhood of those
   * columns keeps. Read from the columns' own lists, so a window of a few hundred columns does
   * not scan every row of a large model (the wishes' windows of a 400 x 300 festival with the
   * rules: fixedExcept 0.7 s of 16.6 s in two calls, most of it that scan).
   */
  private rowsOver(cols: readonly number[]): Int32Array {
    const index = this.columnIndex();
    const seen = new Uint8Array(this.numRows);
    const out: number[] = [];
    for (const j of cols) {
      for (let k = index.starts[j]!; k < index.starts[j + 1]!; k++) {
        const r = index.rows[k]!;
        if (!seen[r]) {
          seen[r] = 1;
          out.push(r);
        }
      }
    }
    return Int32Array.from(out).sort();
  }

  private columnIndex(): NonNullable<MipModel['byCol']> {
    if (this.byCol?.entries === this.entries && this.byCol.numCols === this.numCols) return this.byCol;
    const n = this.numCols;
    const starts = new Int32Array(n + 1);
    for (let k = 0; k < this.entries; k++) starts[this.cols[k]! + 1]!++;
    for (let j = 0; j < n; j++) starts[j + 1]! += starts[j]!;
    const next = starts.slice(0, n);
    const rows = new Int32Array(this.entries);
    for (let r = 0; r < this.numRows; r++) for (let k = this.starts[r]!; k < this.starts[r + 1]!; k++) rows[next[this.cols[k]!]!++] = r;
    this.byCol = { entries: this.entries, numCols: n, starts, rows };
    return this.byCol;
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
      for (let k = this.starts[r]!; k < this.starts[r + 1]!; k++) parts.push(term(this.coefs[k]!, this.cols[k]!, parts.length === 0));
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

/** A copy of `a` with room for at least `n` entries (twice as many, so growth is amortized). */
function grown<T extends Int32Array | Float64Array>(a: T, n: number): T {
  const out = new (a.constructor as new (length: number) => T)(Math.max(n, a.length * 2));
  out.set(a);
  return out;
}

// What exceljs's streaming writer cannot write on its own: links inside the workbook and native charts,
// and table rows written as XML without an exceljs Row and Cell object per cell. All reach into
// exceljs 4.x internals (the sheet's relationship writer, the zip, the sheet's row bookkeeping and the
// workbook's style registry), kept in this one module; test/unit/report/links-and-month.test.ts and
// table-sheet.test.ts read the written parts back, and the LibreOffice test renders them, so a change in
// exceljs shows as a failing test (or the clear error below), not as a broken workbook.
import { createRequire } from 'node:module';
import type ExcelJS from 'exceljs';
import type { StreamingWorkbook } from './workbook-file.js';

/** The internals used here, as exceljs 4.4's WorksheetWriter and WorkbookWriter have them. */
interface SheetInternals {
  _sheetRelsWriter: {
    _hyperlinks: Array<{ address: string; target: string }>;
    addRelationship(rel: { Type: string; Target: string }): string;
  };
  _writeLegacyData(): void;
  stream: { write(text: string): void };
}
interface WorkbookInternals {
  zip: { append(source: unknown, data: { name: string }): unknown };
  __reconParts?: Parts;
}
interface Parts {
  drawings: number;
  charts: number;
  overrides: string[];
}

function internals(sheet: ExcelJS.Worksheet): SheetInternals {
  const s = sheet as unknown as Partial<SheetInternals>;
  if (
    !s._sheetRelsWriter ||
    typeof s._writeLegacyData !== 'function' ||
    !Array.isArray(s._sheetRelsWriter._hyperlinks)
  ) {
    throw new Error('exceljs internals changed: the streaming worksheet writer has no relationship writer');
  }
  return s as SheetInternals;
}

/**
 * A stand-in worksheet for cells written only to a CSV (a list longer than its sheet, list-sheet.ts): the
 * links a column makes on them go nowhere, and `forget` empties what it was given between rows.
 */
export function detachedSheet(name: string): { sheet: ExcelJS.Worksheet; forget: () => void } {
  const links: SheetInternals['_sheetRelsWriter']['_hyperlinks'] = [];
  const stand: SheetInternals & { name: string } = {
    name,
    _sheetRelsWriter: { _hyperlinks: links, addRelationship: () => '' },
    _writeLegacyData: () => undefined,
    stream: { write: () => undefined },
  };
  return { sheet: stand as unknown as ExcelJS.Worksheet, forget: () => void links.splice(0) };
}

/** A sheet's name as a reference writes it: bare when it can be, else quoted. */
function sheetRef(name: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}

/** The number of in-workbook links a sheet keeps; rows past it show plain text (the list is held until commit). */
const MAX_INTERNAL_LINKS = 10_000;

/**
 * Makes `cell` a link to `address` on sheet `sheetName` of the same workbook (e.g. `Disbursements!A7`).
 * exceljs's streaming writer records every link as an external relationship, which Excel opens as a
 * file name; this writes the sheet-level `<hyperlink ref=… location=…>` only. Returns false, leaving
 * the cell as it is, once the sheet has MAX_INTERNAL_LINKS links.
 */
export function linkInside(
  cell: Pick<ExcelJS.Cell, 'address' | 'worksheet'>,
  sheetName: string,
  address: string,
): boolean {
  const links = internals(cell.worksheet)._sheetRelsWriter._hyperlinks;
  if (links.length >= MAX_INTERNAL_LINKS) return false;
  if (!/^[A-Z]{1,3}[0-9]{1,7}$/.test(address)) throw new Error(`not a cell address: ${address}`);
  links.push({ address: cell.address, target: `${sheetRef(sheetName)}!${address}` });
  return true;
}

const escapeXml = (text: string): string =>
  text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[ch]!)
    // characters XML 1.0 cannot carry at all
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');

/** A column chart over cells of the sheet it is drawn on: categories down one column, one series per column. */
export interface ColumnChart {
  title: string;
  /** The sheet the ranges refer to. */
  sheetName: string;
  /**
   * Category cells holding dates, e.g. A4:A34, their values (the cache a viewer shows before it reads the
   * cells) and the format the axis labels them with.
   */
  categories: { range: string; days: Date[]; format: string };
  series: Array<{ nameCell: string; name: string; range: string; values: Array<number | null>; color: string }>;
  /** Number format of the value axis. */
  valueFormat: string;
  /** Where it is drawn: zero-based column and row of the top-left and bottom-right cells. */
  anchor: { fromCol: number; fromRow: number; toCol: number; toRow: number };
}

/** The chart part (DrawingML chart, ECMA-376 Part 1 §21.2) of one clustered column chart. */
function columnChartXml(chart: ColumnChart): string {
  const ref = (range: string) => escapeXml(`${sheetRef(chart.sheetName)}!${absolute(range)}`);
  const { days, format } = chart.categories;
  // a date is its serial day number in the cells (1900 date system: 25569 is 1970-01-01)
  const serial = (d: Date) => d.getTime() / 86_400_000 + 25_569;
  const series = chart.series.map((s, i) => {
    const points = s.values
      .map((v, k) => (v === null || !Number.isFinite(v) ? '' : `<c:pt idx="${k}"><c:v>${v}</c:v></c:pt>`))
      .join('');
    return (
      `<c:ser><c:idx val="${i}"/><c:order val="${i}"/>` +
      `<c:tx><c:strRef><c:f>${ref(s.nameCell)}</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0">` +
        `<c:v>${escapeXml(s.name)}</c:v></c:pt></c:strCache></c:strRef></c:tx>` +
      `<c:spPr><a:solidFill><a:srgbClr val="${/^[0-9A-F]{6}$/.test(s.color) ? s.color : '4472C4'}"/></a:solidFill>` +
        `</c:spPr><c:invertIfNegative val="0"/>` +
      `<c:cat><c:numRef><c:f>${ref(chart.categories.range)}</c:f><c:numCache>` +
        `<c:formatCode>${escapeXml(format)}</c:formatCode><c:ptCount val="${days.length}"/>` +
      days.map((d, k) => `<c:pt idx="${k}"><c:v>${serial(d)}</c:v></c:pt>`).join('') +
      `</c:numCache></c:numRef></c:cat>` +
      `<c:val><c:numRef><c:f>${ref(s.range)}</c:f><c:numCache><c:formatCode>General</c:formatCode><c:ptCount ` +
        `val="${s.values.length}"/>${points}</c:numCache></c:numRef></c:val>` +
      `</c:ser>`
    );
  }).join('');
  const legend = chart.series.length > 1 ? '<c:legend><c:legendPos val="b"/><c:overlay val="0"/></c:legend>' : '';
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" ' +
      'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
    '<c:roundedCorners val="0"/><c:chart>' +
    `<c:title><c:tx><c:rich><a:bodyPr/><a:p><a:pPr><a:defRPr sz="1100" b="1"/></a:pPr><a:r><a:rPr lang="en-US" ` +
      `sz="1100" b="1"/><a:t>${escapeXml(chart.title)}</a:t></a:r></a:p></c:rich></c:tx><c:overlay val="0"/>` +
        `</c:title>` +
    '<c:autoTitleDeleted val="0"/><c:plotArea><c:layout/>' +
    `<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/><c:varyColors val="0"/>${series}<c:gapWidth ` +
      `val="40"/><c:axId val="500001"/><c:axId val="500002"/></c:barChart>` +
    '<c:catAx><c:axId val="500001"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos ' +
      'val="b"/>' +
    `<c:numFmt formatCode="${escapeXml(format)}" sourceLinked="0"/><c:majorTickMark val="out"/><c:minorTickMark ` +
      `val="none"/><c:tickLblPos val="low"/>` +
    '<c:txPr><a:bodyPr rot="-5400000"/><a:p><a:pPr><a:defRPr sz="800"/></a:pPr><a:endParaRPr lang="en-US"/></a:p>' +
      '</c:txPr>' +
    '<c:crossAx val="500002"/><c:crosses val="autoZero"/><c:auto val="1"/><c:lblAlgn val="ctr"/><c:lblOffset ' +
      'val="100"/><c:noMultiLvlLbl val="0"/></c:catAx>' +
    '<c:valAx><c:axId val="500002"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos ' +
      'val="l"/><c:majorGridlines/>' +
    `<c:numFmt formatCode="${escapeXml(chart.valueFormat)}" sourceLinked="0"/><c:majorTickMark val="out"/>` +
      `<c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/>` +
    '<c:txPr><a:bodyPr/><a:p><a:pPr><a:defRPr sz="800"/></a:pPr><a:endParaRPr lang="en-US"/></a:p></c:txPr>' +
    '<c:crossAx val="500001"/><c:crosses val="autoZero"/><c:crossBetween val="between"/></c:valAx>' +
    `</c:plotArea>${legend}<c:plotVisOnly val="1"/><c:dispBlanksAs val="gap"/></c:chart></c:chartSpace>`
  );
}

/** A1:B3 → $A$1:$B$3 (a chart's ranges are absolute). */
function absolute(range: string): string {
  return range.split(':').map((corner) => {
    const m = /^([A-Z]{1,3})([0-9]{1,7})$/.exec(corner);
    if (!m) throw new Error(`not a cell range: ${range}`);
    return `$${m[1]}$${m[2]}`;
  }).join(':');
}

function drawingXml(anchors: ColumnChart['anchor'][], firstShapeId: number): string {
  const frames = anchors
    .map(
      (a, i) =>
        '<xdr:twoCellAnchor editAs="oneCell">' +
        `<xdr:from><xdr:col>${a.fromCol}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${a.fromRow}</xdr:row>` +
          `<xdr:rowOff>0</xdr:rowOff></xdr:from>` +
        `<xdr:to><xdr:col>${a.toCol}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${a.toRow}</xdr:row>` +
          `<xdr:rowOff>0</xdr:rowOff></xdr:to>` +
        `<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="${firstShapeId + i}" name="Chart ` +
          `${i + 1}"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr>` +
        '<xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm>' +
        '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart">' +
        `<c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rId${i + 1}"/>` +
        '</a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:twoCellAnchor>',
    )
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
    '<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" ' +
      'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
    `${frames}</xdr:wsDr>`
  );
}

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** Parts added to a workbook are declared in [Content_Types].xml, which exceljs writes at commit. */
function parts(workbook: StreamingWorkbook): Parts {
  const wb = workbook as unknown as WorkbookInternals;
  if (wb.__reconParts) return wb.__reconParts;
  if (!wb.zip || typeof wb.zip.append !== 'function')
    throw new Error('exceljs internals changed: the streaming workbook has no zip');
  const state: Parts = { drawings: 0, charts: 0, overrides: [] };
  const append = wb.zip.append.bind(wb.zip);
  wb.zip.append = (source, data) => {
    if (data?.name === '[Content_Types].xml' && typeof source === 'string' && state.overrides.length > 0) {
      return append(source.replace('</Types>', `${state.overrides.join('')}</Types>`), data);
    }
    return append(source, data);
  };
  wb.__reconParts = state;
  return state;
}

/**
 * Draws `charts` on `sheet` as native Excel charts (one drawing part, one chart part each). Call it
 * before the sheet is committed, with every chart of that sheet; the values stay in the sheet's cells.
 */
export function drawCharts(workbook: StreamingWorkbook, sheet: ExcelJS.Worksheet, charts: ColumnChart[]): void {
  if (charts.length === 0) return;
  const state = parts(workbook);
  const zip = (workbook as unknown as WorkbookInternals).zip;
  const drawing = ++state.drawings;
  const drawingRels: string[] = [];
  charts.forEach((chart, i) => {
    const n = ++state.charts;
    zip.append(columnChartXml(chart), { name: `xl/charts/chart${n}.xml` });
    state.overrides.push(
      `<Override PartName="/xl/charts/chart${n}.xml" ` +
        `ContentType="application/vnd.openxmlformats-officedocument.drawingml.chart+xml"/>`,
    );
    drawingRels.push(`<Relationship Id="rId${i + 1}" Type="${REL}/chart" Target="../charts/chart${n}.xml"/>`);
  });
  zip.append(drawingXml(charts.map((c) => c.anchor), 2), { name: `xl/drawings/drawing${drawing}.xml` });
  zip.append(
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
      `<Relationships ` +
        `xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${drawingRels.join('')}</Relationships>`,
    { name: `xl/drawings/_rels/drawing${drawing}.xml.rels` },
  );
  state.overrides.push(
    `<Override PartName="/xl/drawings/drawing${drawing}.xml" ` +
      `ContentType="application/vnd.openxmlformats-officedocument.drawing+xml"/>`,
  );

  const s = internals(sheet);
  const rId = s._sheetRelsWriter.addRelationship({
    Type: `${REL}/drawing`,
    Target: `../drawings/drawing${drawing}.xml`,
  });
  const writeLegacyData = s._writeLegacyData.bind(s);
  // <drawing> comes after the header/footer and page breaks and before <legacyDrawing> (CT_Worksheet)
  s._writeLegacyData = () => {
    s.stream.write(`<drawing r:id="${rId}"/>`);
    writeLegacyData();
  };
}

/** The row bookkeeping of exceljs 4.4's WorksheetWriter and the style registry of its WorkbookWriter. */
interface RowInternals {
  _rows: unknown[] | null;
  _rowZero: number;
  startedData: boolean;
  committed: boolean;
  stream: { write(text: string): unknown };
  _workbook: { styles: { addStyleModel(style: Partial<ExcelJS.Style>, type: ExcelJS.ValueType): number } };
}

/** Rows appended to a streamed sheet as XML, after the rows exceljs committed (sheetRows). */
export interface SheetRows {
  /** The style id exceljs gives `style` on a cell of value type `type` (CellXform.prepare asks the same). */
  styleId(style: Partial<ExcelJS.Style>, type: ExcelJS.ValueType): number;
  /** Appends whole `<row>` elements; `next` is the number of the row after the last one in `xml`. */
  append(xml: string, next: number): void;
}

/** exceljs's own text escaping for cell values and attributes (utils.xmlEncode), so the bytes are its bytes. */
export const xmlText: (text: string) => string = (() => {
  const utils = createRequire(import.meta.url)('exceljs/lib/utils/utils.js') as { xmlEncode?: unknown };
  if (typeof utils.xmlEncode !== 'function')
    throw new Error('exceljs internals changed: lib/utils/utils.js has no xmlEncode');
  return utils.xmlEncode as (text: string) => string;
})();

/**
 * Lets the caller write rows `firstRow`… of `sheet` as XML it renders itself, the way exceljs 4.4's
 * RowXform and CellXform render them (table-sheet.ts), instead of one exceljs Row with a Cell object
 * per cell. Every row before `firstRow` must be committed (the sheet's data started) and none after it
 * created; afterwards `getRow` works again from the row after the last one appended.
 */
export function sheetRows(sheet: ExcelJS.Worksheet, firstRow: number): SheetRows {
  const s = sheet as unknown as Partial<RowInternals>;
  const styles = s._workbook?.styles;
  if (!Array.isArray(s._rows) || typeof s._rowZero !== 'number' || typeof s.startedData !== 'boolean'
    || typeof styles?.addStyleModel !== 'function' || typeof s.stream?.write !== 'function') {
    throw new Error(
      'exceljs internals changed: the streaming worksheet writer has no row bookkeeping or style registry',
    );
  }
  const sheetState = s as RowInternals;
  const ready = (row: number): void => {
    if (
      sheetState.committed ||
      !sheetState.startedData ||
      sheetState._rows?.length !== 0 ||
      sheetState._rowZero !== row
    ) {
      throw new Error(
        `sheet "${sheet.name}": rows before ${row} must be committed and none after created before it is written as ` +
          `XML`,
      );
    }
  };
  ready(firstRow);
  let expected = firstRow;
  return {
    styleId: (style, type) => styles.addStyleModel(style, type),
    append: (xml, next) => {
      ready(expected);
      if (xml.length > 0) sheetState.stream.write(xml);
      sheetState._rowZero = next;
      expected = next;
    },
  };
}

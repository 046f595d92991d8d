import { changesPerLevel } from './workflow-change-rows.js';
import type { ChangeRow, DiffPart, LevelCell } from './workflow-change-rows.js';

/**
 * The workflow changes report as one self-contained HTML page (the operation produces text/html):
 * a section per job with the segments some workflow step changed, the text after each level, and
 * each change marked (<del> removed, <ins> added). Pure.
 */

export interface ReportLevel {
  level: number;
  /** The workflow step's name, or null for a project without workflow steps. */
  stepName: string | null;
}

export interface ReportJob {
  uid: string;
  projectName: string;
  filename: string;
  sourceLang: string;
  targetLang: string;
  /** The file's segments the job covers (1-based, as shown). */
  firstSegment: number;
  lastSegment: number;
  levels: ReportLevel[];
  rows: ChangeRow[];
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

function diffHtml(parts: readonly DiffPart[]): string {
  return parts
    .map((p) =>
      p.kind === 'same' ? escapeHtml(p.text) : p.kind === 'added' ? `<ins>${escapeHtml(p.text)}</ins>` : `<del>${escapeHtml(p.text)}</del>`,
    )
    .join('');
}

function cellHtml(cell: LevelCell): string {
  if (cell.changed) return `<td class="changed">${diffHtml(cell.diff)}</td>`;
  return `<td>${cell.text === null ? '' : escapeHtml(cell.text)}</td>`;
}

const levelTitle = (level: ReportLevel) =>
  level.stepName === null ? `Level ${level.level}` : `${level.level}. ${escapeHtml(level.stepName)}`;

function jobSection(job: ReportJob): string {
  const counts = changesPerLevel(job.rows, job.levels.length);
  const summary = job.levels.map((l, i) => `<li>${levelTitle(l)}: ${counts[i]} segment${counts[i] === 1 ? '' : 's'} changed</li>`).join('');
  const header = `<tr><th>#</th><th>Source (${escapeHtml(job.sourceLang)})</th>${job.levels.map((l) => `<th>${levelTitle(l)}</th>`).join('')}</tr>`;
  const body = job.rows.length
    ? job.rows
        .map(
          (row) => `<tr><td class="index">${row.index + 1}</td><td>${escapeHtml(row.source)}</td>${row.cells.map(cellHtml).join('')}</tr>`,
        )
        .join('\n')
    : `<tr><td colspan="${job.levels.length + 2}">No workflow step changed a segment of this job.</td></tr>`;
  return [
    `<section data-job-uid="${escapeHtml(job.uid)}">`,
    `<h2>${escapeHtml(job.filename)} — ${escapeHtml(job.sourceLang)} → ${escapeHtml(job.targetLang)}</h2>`,
    `<p>Project ${escapeHtml(job.projectName)}; segments ${job.firstSegment}–${job.lastSegment}.</p>`,
    `<ul>${summary}</ul>`,
    `<table>\n<thead>${header}</thead>\n<tbody>\n${body}\n</tbody>\n</table>`,
    '</section>',
  ].join('\n');
}

const STYLE =
  'body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;width:100%}th,td{border:1px solid #ccc;padding:4px 6px;vertical-align:top;text-align:left}td.changed{background:#fffbe6}td.index{color:#666}ins{background:#d4f7d4;text-decoration:none}del{background:#f7d4d4}';

/** The whole report page; `generatedAt` is an ISO timestamp. */
export function workflowChangesHtml(jobs: readonly ReportJob[], generatedAt: string): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><title>Workflow changes</title>',
    `<style>${STYLE}</style></head>`,
    '<body>',
    '<h1>Workflow changes</h1>',
    `<p>Generated ${escapeHtml(generatedAt)}.</p>`,
    ...jobs.map(jobSection),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

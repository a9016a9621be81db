import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import { basicSetup } from 'codemirror';
import { javascript } from '@codemirror/lang-javascript';
import { json } from '@codemirror/lang-json';
import { Compartment, EditorSelection, EditorState, type Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';

/** A problem to mark in the text: 1-based line and column (a missing column marks the whole line). */
export interface CodeMarker {
  line: number;
  column?: number;
  severity: 'error' | 'warning' | 'info';
  message: string;
}

export interface CodeEditorHandle {
  /** Moves the cursor to a 1-based line and column, scrolls there and focuses the editor. */
  goTo(line: number, column?: number): void;
}

export interface CodeEditorProps {
  value: string;
  /** Without it the editor is read-only (text can still be selected and copied). */
  onChange?: (value: string) => void;
  language: 'javascript' | 'json';
  /** The accessible name of the text area. */
  label: string;
  markers?: CodeMarker[];
  /** CSS height of the scrolling area, e.g. `20rem`. */
  height?: string;
  ref?: Ref<CodeEditorHandle>;
  testId?: string;
}

// The default gutter grey (#999 on #f5f5f5) is below the 4.5:1 contrast axe asks for; the console's muted colour is not.
const theme = EditorView.theme({
  '&': { border: '1px solid var(--line)', borderRadius: 'var(--radius)', background: '#fff', fontSize: '0.9rem' },
  '&.cm-focused': { outline: '3px solid #93c5fd' },
  '.cm-gutters': { color: '#57606a', background: '#f6f7f9', borderRight: '1px solid var(--line)' },
  '.cm-activeLineGutter': { color: '#1b1f24', background: '#e5e7eb' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', overflow: 'auto' },
});

function positionOf(state: EditorState, line: number, column = 1): number {
  const target = state.doc.line(Math.min(Math.max(1, line), state.doc.lines));
  return Math.min(target.from + Math.max(0, column - 1), target.to);
}

function diagnosticsOf(state: EditorState, markers: CodeMarker[]): Diagnostic[] {
  return markers.map((marker) => {
    const line = state.doc.line(Math.min(Math.max(1, marker.line), state.doc.lines));
    const from = marker.column === undefined ? line.from : positionOf(state, marker.line, marker.column);
    // A column marks the rest of its word (at least one character); no column, the whole line.
    let to = marker.column === undefined ? line.to : from;
    if (marker.column !== undefined) {
      const rest = /^\w+/.exec(state.sliceDoc(from, line.to));
      to = Math.min(line.to, from + Math.max(1, rest?.[0].length ?? 1));
    }
    return { from, to, severity: marker.severity, message: marker.message };
  });
}

/**
 * CodeMirror 6 with JavaScript or JSON highlighting, line numbers, bracket matching and search; `markers` show as
 * underlines and gutter signs with their messages (a compile report's line and column, for example). Tab is left
 * to move focus, so the editor never traps keyboard users.
 */
export function CodeEditor({ value, onChange, language, label, markers, height = '18rem', ref, testId }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const editable = useRef(new Compartment());
  const readOnly = onChange === undefined;

  useEffect(() => {
    if (!host.current) return;
    const extensions: Extension[] = [
      basicSetup,
      language === 'javascript' ? javascript() : json(),
      lintGutter(),
      theme,
      EditorView.theme({ '.cm-scroller': { maxHeight: height, minHeight: '6rem' } }),
      EditorView.contentAttributes.of({ 'aria-label': label }),
      editable.current.of([EditorState.readOnly.of(readOnly)]),
      EditorView.updateListener.of((update) => {
        if (update.docChanged) onChangeRef.current?.(update.state.doc.toString());
      }),
    ];
    const created = new EditorView({ state: EditorState.create({ doc: value, extensions }), parent: host.current });
    view.current = created;
    return () => {
      created.destroy();
      view.current = null;
    };
    // The editor is made once per language and label; value, markers and read-only changes are applied below.
  }, [language, label, height]);

  useEffect(() => {
    const current = view.current;
    if (current && current.state.doc.toString() !== value) current.dispatch({ changes: { from: 0, to: current.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: editable.current.reconfigure([EditorState.readOnly.of(readOnly)]) });
  }, [readOnly]);

  useEffect(() => {
    const current = view.current;
    if (current) current.dispatch(setDiagnostics(current.state, diagnosticsOf(current.state, markers ?? [])));
  }, [markers, value]);

  useImperativeHandle(ref, () => ({
    goTo(line, column) {
      const current = view.current;
      if (!current) return;
      const at = positionOf(current.state, line, column);
      current.dispatch({ selection: EditorSelection.cursor(at), scrollIntoView: true });
      current.focus();
    },
  }));

  return <div ref={host} className="code-editor" data-testid={testId} />;
}

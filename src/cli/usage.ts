/** The `causal-replay --help` text. */
export const USAGE = `Usage: causal-replay <command> [options]

Commands:
  report <artifact.json> [-o out.html]   Write the HTML attribution report of an artifact
                                         (default: next to it, with .html for .json).
  show <artifact.json>                   Print the verdict and the attribution table.

Options:
  -o, --output <file>   report: where to write the HTML.
  -h, --help            Show this help.
  -v, --version         Show the version.

Artifacts are the JSON files the reporter writes to .causal-replay/ (one per rate assertion).
Exit codes: 0 done, 2 bad usage or an invalid artifact (nothing written), 1 any other error.`

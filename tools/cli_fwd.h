// CLI11's App, declared for the headers of tools/ that name it. Including
// <CLI/CLI.hpp> costs a file about 10 s of CPU at -O3 before any code of its
// own (the validators it defines are objects that every file constructs), so
// only the files that define options include it.
#ifndef SIMDEX_TOOLS_CLI_FWD_H_
#define SIMDEX_TOOLS_CLI_FWD_H_

namespace CLI {
class App;
}  // namespace CLI

#endif  // SIMDEX_TOOLS_CLI_FWD_H_

// The batch jobs' library code (engine/pipeline/) under the names the
// commands used while it lived in tools/. Issue 38 replaces these with the
// public API of include/simdex/batch.h, command by command; a command that
// no longer needs a name here stops including this. What is left: reading
// documents (`simdex fingerprint`, `idf`, `build --method minhash`, `query`,
// `merge`), the idf pass of `fingerprint` and `idf`, the worker pipeline,
// and MinHash's arguments as the command checks them.
#ifndef SIMDEX_TOOLS_PIPELINE_NAMES_H_
#define SIMDEX_TOOLS_PIPELINE_NAMES_H_

#include "engine/pipeline/batch_pipeline.h"
#include "engine/pipeline/document_files.h"
#include "engine/pipeline/idf_pass.h"
#include "engine/pipeline/minhash_dedup.h"

namespace simdex::tools {

using pipeline::CheckTwoPasses;
using pipeline::ChooseInputFormats;
using pipeline::DocumentBatch;
using pipeline::DocumentInputArgs;
using pipeline::DocumentInputs;
using pipeline::IdfTableBytes;
using pipeline::LearnIdf;
using pipeline::RunFingerprintPipeline;
using pipeline::RunWorkerPipeline;
using pipeline::SpillDirectory;
using pipeline::WorkerFactory;
using pipeline::WorkerWork;

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_PIPELINE_NAMES_H_

// The batch jobs' library code (engine/pipeline/) under the names the
// commands used while it lived in tools/. Issue 38 replaces these with the
// public API of include/simdex/batch.h, command by command; a command that
// no longer needs a name here stops including this.
#ifndef SIMDEX_TOOLS_PIPELINE_NAMES_H_
#define SIMDEX_TOOLS_PIPELINE_NAMES_H_

#include "engine/pipeline/batch_pipeline.h"
#include "engine/pipeline/confirm_pairs.h"
#include "engine/pipeline/dedup_records.h"
#include "engine/pipeline/document_files.h"
#include "engine/pipeline/document_ids.h"
#include "engine/pipeline/duplicate_ids.h"
#include "engine/pipeline/idf_pass.h"
#include "engine/pipeline/minhash_dedup.h"
#include "engine/pipeline/sorted_pairs.h"

namespace simdex::tools {

using pipeline::AcceptedPair;
using pipeline::AppendIndexId;
using pipeline::BatchSink;
using pipeline::BatchSource;
using pipeline::BatchWork;
using pipeline::CandidateK;
using pipeline::CheckMinHashDedupArgs;
using pipeline::CheckTwoPasses;
using pipeline::ChooseInputFormats;
using pipeline::CompactOutcomes;
using pipeline::ConfirmPairs;
using pipeline::DedupBatch;
using pipeline::DedupOutcomes;
using pipeline::DocumentBatch;
using pipeline::DocumentIds;
using pipeline::DocumentInputArgs;
using pipeline::DocumentInputs;
using pipeline::DocumentPlaces;
using pipeline::DuplicateIds;
using pipeline::FindDuplicateIds;
using pipeline::ForEachDocumentOf;
using pipeline::IdfTableBytes;
using pipeline::IndexIds;
using pipeline::LearnIdf;
using pipeline::kMinHashMinMemoryBytes;
using pipeline::kMinHashNumPerm;
using pipeline::kMinHashSignatureBits;
using pipeline::kMinHashThreshold;
using pipeline::MinHashDedupArgs;
using pipeline::MinHashDedupStats;
using pipeline::PairSource;
using pipeline::PairsOf;
using pipeline::PairVisitor;
using pipeline::RunBatchPipeline;
using pipeline::RunFingerprintPipeline;
using pipeline::RunMinHashDedup;
using pipeline::RunSecondStage;
using pipeline::RunWorkerPipeline;
using pipeline::ScoreBy;
using pipeline::SecondStageArgs;
using pipeline::SecondStageDocuments;
using pipeline::SecondStageStats;
using pipeline::SortedPairs;
using pipeline::SpillDirectory;
using pipeline::Tick;
using pipeline::WorkerFactory;
using pipeline::WorkerWork;
using pipeline::WriteClusters;
using pipeline::WriteDedupPairs;
using pipeline::WriteDedupResults;
using pipeline::WriteKeepList;

}  // namespace simdex::tools

#endif  // SIMDEX_TOOLS_PIPELINE_NAMES_H_

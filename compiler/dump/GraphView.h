//===- GraphView.h - a function's graph with its memory decisions -*- C++ -*-//
//
// One model of what `tcc compile --emit=dot` and `--emit=dprint` show: the tc
// ops of each function with symbolic shapes on their values, and what
// bufferization decided for them (in-place writes, views, copies,
// temporaries), read off the bufferized IR and mapped back to tc ops through
// source locations. Both printers read this model and nothing else, so the
// picture and the text can never disagree.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPILER_DUMP_GRAPHVIEW_H
#define TCC_COMPILER_DUMP_GRAPHVIEW_H

#include "compiler/dump/ArenaReport.h"
#include "compiler/pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"

#include <optional>
#include <string>
#include <vector>

namespace tcc::dump {

/// What a node stands for.
enum class NodeKind {
  Input,    ///< a function input
  Shared,   ///< a shared variable (its pre-call value; updates point to it)
  Constant, ///< a constant tensor
  Op,       ///< a tc op
  Output,   ///< a function output
};

/// Where an output's buffer comes from, as the manifest says.
enum class Placement {
  Fresh,          ///< a new buffer each call, aliased to nothing
  ReusedBorrowed, ///< a borrowed output: one buffer reused from call to call
  InInput,        ///< the buffer of a borrowed input (`holder`)
};

/// A memref.copy that bufferization inserted, in words.
struct CopyFact {
  std::string bytes;    ///< "N*4 B"
  std::string from;     ///< "input 'x'", "shared variable 'a'", "a temporary"
  std::string into;     ///< "output 'y'", "shared variable 'b'", ...
  std::string location; ///< "sgd.tg:20:1", or empty
};

/// One node. Edges are `operands` (producer node indices, in operand order).
struct Node {
  NodeKind kind = NodeKind::Op;
  /// Op mnemonic ("matmul"), or the input/variable/output name, or the
  /// constant's value ("2.0").
  std::string name;
  /// The op's attributes as the graph format spells them: "axis=1".
  std::string attributes;
  /// The value's type with named dimensions: "f32[N,784]".
  std::string type;
  /// "sgd.tg:10:12", empty when unknown.
  std::string location;
  std::vector<size_t> operands;
  /// Inputs and outputs: the borrow flag.
  bool borrowed = false;

  // Memory decisions, all read off the bufferized IR.
  /// d={0: [i]}: the result is computed in the buffer that operand i's data
  /// occupies (directly, or through ops fused into the same loop).
  std::vector<unsigned> destroys;
  /// v={0: [i]}: the result is a view of operand i's buffer (no data moved).
  std::vector<unsigned> viewOf;
  /// The argument buffer the result is written into, when it is one: an
  /// output, a shared variable, or a borrowed input (its name).
  std::string writesInto;
  NodeKind writesIntoKind = NodeKind::Output;
  /// Op nodes: sizes of the temporary buffers allocated for it ("N*40 B").
  std::vector<std::string> temporaries;
  /// Inputs and shared variables: the op nodes that overwrite its buffer.
  std::vector<size_t> overwrittenBy;
  /// Inputs and shared variables: copies of the old value into temporaries
  /// (e.g. a swap saves both variables first).
  std::vector<CopyFact> saved;

  // Outputs only.
  Placement placement = Placement::Fresh;
  /// Placement::InInput: the borrowed input whose buffer holds the output.
  std::string holder;
  /// The output is copied into its buffer (its value is an input, a
  /// variable, another output, or a view of one).
  std::optional<CopyFact> copy;
};

/// A shared variable's new value (`updates { V = ... }`).
struct Update {
  size_t variable = 0; ///< the Shared node
  size_t value = 0;    ///< the node computing the new value
  /// The new value was computed directly in the variable's storage.
  bool inPlace = false;
  /// The new value was copied into the storage instead.
  std::optional<CopyFact> copy;
};

/// A temporary allocation and the node it is attributed to.
struct TemporaryFact {
  std::string bytes;
  std::optional<size_t> node;
  std::string location;
};

/// One function: nodes in program order (inputs, shared variables and
/// constants before their first use; outputs last).
struct FunctionGraph {
  std::string name;
  std::vector<Node> nodes;
  std::vector<size_t> outputs; ///< Output nodes, in declaration order
  std::vector<Update> updates; ///< in declaration order
  std::vector<CopyFact> copies;
  std::vector<TemporaryFact> temporaries;
  /// Which temporaries share memory: the arena plan (tcc-plan-arena).
  ArenaPlanView arena;
};

/// Builds the graphs of every function of `module` (the tc dialect). The
/// module is canonicalized as the compiler's first step does; a clone is
/// lowered to the bufferized stage to read the memory decisions.
/// Diagnostics go to the context's handler.
mlir::FailureOr<std::vector<FunctionGraph>>
buildGraphViews(mlir::ModuleOp module, const PipelineOptions &options = {});

/// "A", "B", ..., "Z", "BA", "BB", ...: PyTensor's node ids.
std::string nodeId(size_t index);

/// PyTensor's marks: "d={0: [1]}", "v={0: [0]}", or empty.
std::string destroyMark(const Node &node);
std::string viewMark(const Node &node);

} // namespace tcc::dump

#endif // TCC_COMPILER_DUMP_GRAPHVIEW_H

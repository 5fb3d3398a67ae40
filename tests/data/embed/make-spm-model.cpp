// Trains the tiny SentencePiece model of the XLM-R-style fixture with the
// C++ trainer that mt/spm uses (Debian ships neither the Python module nor
// spm_train). XLM-R's id layout: <unk> 0, <s> 1, </s> 2, no pad piece.
// Identity normalisation keeps the fixture script's reference segmenter
// (plain Viterbi over the pieces) exact.
//   g++ -std=c++17 make-spm-model.cpp -lsentencepiece_train -lsentencepiece
//   ./a.out corpus.txt sentencepiece.bpe.model
#include <sentencepiece_trainer.h>

#include <fstream>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: make-spm-model CORPUS.txt OUT.model\n";
    return 2;
  }
  sentencepiece::SetRandomGeneratorSeed(1);
  const std::string args = std::string("--input=") + argv[1] +
                           " --model_type=unigram --vocab_size=90 --character_coverage=1.0"
                           " --unk_id=0 --bos_id=1 --eos_id=2 --pad_id=-1 --hard_vocab_limit=false"
                           " --normalization_rule_name=identity --num_threads=1 --minloglevel=2"
                           " --shuffle_input_sentence=false";
  std::string model;
  auto st = sentencepiece::SentencePieceTrainer::Train(args, nullptr, &model);
  if (!st.ok()) {
    std::cerr << st.message() << "\n";
    return 1;
  }
  std::ofstream(argv[2], std::ios::binary) << model;
  return 0;
}

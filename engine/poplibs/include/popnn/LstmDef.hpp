// The units of a basic LSTM cell, in PopLibs' numbering. LstmParams::cellOrder says in which
// order they lie along the first dimension of the weights and biases.
#pragma once

enum BasicLstmCellUnit {
  BASIC_LSTM_CELL_FORGET_GATE = 0,
  BASIC_LSTM_CELL_INPUT_GATE = 1,
  BASIC_LSTM_CELL_CANDIDATE = 2,
  BASIC_LSTM_CELL_OUTPUT_GATE = 3,
  BASIC_LSTM_CELL_NUM_UNITS = 4
};

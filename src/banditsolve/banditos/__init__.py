"""Los Banditos: the two-player dice duel over booty tiles."""

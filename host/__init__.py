"""What Trident asks of the machine and the tools beside it: git (the commit, diff and blame of a work tree), the
interpreter's memory (the cyclic garbage collector, freed memory returned to the system) and the Ray cluster. The
ground floor: it imports nothing of Trident's but itself."""

# frozen_string_literal: true

# Time the 18xx.games engine (github.com/tobymao/18xx, lib/engine) replaying site exports: for each
# export, the fastest of RUNS calls of Engine::Game.load on its parsed JSON (game set-up, every
# action read from its hash and processed, the game log kept as the site keeps it), in wall time
# (ms) and in this process's CPU time (cpu_ms).
#
# Usage: ruby benchmarks/ruby_replay.rb CHECKOUT RUNS EXPORT.json...
# Prints one JSON object. Driven by benchmarks/ruby_replay.py, which times Rolling's replay() of
# the same games in the same run. Needs Ruby >= 3.1 and no gem: the engine's loader calls
# require_all's require_rel, defined here for the engine's folders.
require 'json'
require 'set' # the engine uses Set, which Ruby 3.1 does not load by itself

module Kernel
  # require_all's require_rel: every .rb file under the given paths (relative to the caller's
  # file), again and again while some fail on a constant another file defines
  def require_rel(*paths)
    base = File.dirname(caller_locations(1, 1)[0].absolute_path)
    files = paths.flatten.flat_map do |p|
      full = File.expand_path(p, base)
      File.directory?(full) ? Dir.glob(File.join(full, '**', '*.rb')).sort : [full.end_with?('.rb') ? full : "#{full}.rb"]
    end
    until files.empty?
      failed = []
      error = nil
      files.each do |f|
        require f
      rescue NameError => e
        failed << f
        error = e
      end
      raise error if failed.size == files.size

      files = failed
    end
    true
  end
end
$LOADED_FEATURES << 'require_all.rb'

checkout, runs, *exports = ARGV
ENV['ENGINE_LOG_LEVEL'] ||= '4' # the engine's debug logger off (its game log stays on)
t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
require File.join(File.expand_path(checkout), 'lib', 'engine')
result = {
  'ruby' => RUBY_DESCRIPTION,
  'engine_load_s' => (Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0).round(3),
  'records' => {},
}
exports.each do |path|
  data = JSON.parse(File.read(path))
  best = Float::INFINITY
  best_cpu = Float::INFINITY
  game = nil
  runs.to_i.times do
    t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    c = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
    game = Engine::Game.load(data)
    best_cpu = [best_cpu, Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - c].min
    best = [best, Process.clock_gettime(Process::CLOCK_MONOTONIC) - t].min
  end
  result['records'][File.basename(path, '.json')] = {
    'ms' => (best * 1000).round(3),
    'cpu_ms' => (best_cpu * 1000).round(3),
    'actions' => data['actions'].size,
    'finished' => game.finished,
    'exception' => game.exception&.message,
    'scores' => game.players.to_h { |p| [p.id.to_s, game.player_value(p)] },
  }
end
puts JSON.generate(result)

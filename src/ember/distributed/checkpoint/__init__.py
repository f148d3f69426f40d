"""``ember.distributed.checkpoint``: save and load (sharded) state dicts SPMD style, one
file per rank plus ``.metadata`` in a directory, loading into models sharded differently
from the ones that saved; ``checkpoint.state_dict`` gets and sets model and optimizer state
dicts under the original names whatever wraps the model."""

from .api import CheckpointException
from .default_planner import DefaultLoadPlanner, DefaultSavePlanner
from .filesystem import FileSystemReader, FileSystemWriter
from .metadata import BytesStorageMetadata, ChunkStorageMetadata, Metadata, TensorStorageMetadata
from .planner import LoadPlan, LoadPlanner, ReadItem, SavePlan, SavePlanner, WriteItem
from .state_dict_loader import load, load_state_dict
from .state_dict_saver import async_save, save, save_state_dict

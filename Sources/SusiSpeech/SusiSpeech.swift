import CPocketSphinx
import CESpeakNG
